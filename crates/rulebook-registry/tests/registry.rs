//! The registry with a toy capability: ordering, selection, failures, dedup and validation.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use rulebook_registry::{
    Capability, LoadContext, LoadResult, Provider, ProviderError, Registry, RegistryError, Status,
};
use rulebook_rule::Profile;

/// Items are `key=value`; an empty value is invalid.
struct Pairs;
impl Capability for Pairs {
    type Item = String;
    const ID: &'static str = "pairs";
    fn key(item: &String) -> &str {
        item.split('=').next().unwrap_or("")
    }
    type Invalid = String;
    fn validate(item: &String) -> Result<(), String> {
        if item.ends_with('=') {
            Err("Item must have a value".into())
        } else {
            Ok(())
        }
    }
}

enum Behaviour {
    Items(Vec<&'static str>),
    Fail,
    Panic,
}

struct Toy(&'static str, i32, Behaviour);
impl Provider<Pairs> for Toy {
    fn id(&self) -> &str {
        self.0
    }
    fn display_name(&self) -> &str {
        self.0
    }
    fn description(&self) -> &'static str {
        "toy"
    }
    fn priority(&self) -> i32 {
        self.1
    }
    fn load(&self, _: &LoadContext) -> Result<LoadResult<String>, ProviderError> {
        match &self.2 {
            Behaviour::Items(items) => Ok(LoadResult::new(
                items.iter().map(ToString::to_string).collect(),
            )),
            Behaviour::Fail => Err("disk on fire".into()),
            Behaviour::Panic => panic!("provider bug"),
        }
    }
}

fn ctx(profile: Profile) -> LoadContext {
    LoadContext::new("/nonexistent/project", "/nonexistent/home").profile(profile)
}

fn items(registry: &Registry<Pairs>, profile: Profile) -> Vec<String> {
    registry.load(&ctx(profile)).items().cloned().collect()
}

#[test]
fn priority_then_registration_order() {
    let registry = Registry::new()
        .with(Toy("cline", 40, Behaviour::Items(vec!["x=cline"])))
        .with(Toy("cursor", 50, Behaviour::Items(vec!["x=cursor", "c=1"])))
        .with(Toy(
            "windsurf",
            50,
            Behaviour::Items(vec!["x=windsurf", "w=1"]),
        ))
        .with(Toy("native", 100, Behaviour::Items(vec!["n=1"])));
    let ids: Vec<String> = registry.infos().into_iter().map(|i| i.id).collect();
    assert_eq!(ids, ["native", "cursor", "windsurf", "cline"]);
    assert_eq!(
        items(&registry, Profile::Extended),
        ["n=1", "x=cursor", "c=1", "w=1"]
    );
    let loaded = registry.load(&ctx(Profile::Extended));
    let shadowed: Vec<(&str, &str)> = loaded
        .shadowed()
        .map(|(loser, winner)| (loser.item.as_str(), winner.item.as_str()))
        .collect();
    assert_eq!(
        shadowed,
        [("x=windsurf", "x=cursor"), ("x=cline", "x=cursor")]
    );
    assert_eq!(loaded.providers, ["native", "cursor", "windsurf", "cline"]);
}

#[test]
fn sequential_and_parallel_agree() {
    let mut registry = Registry::new()
        .with(Toy("a", 1, Behaviour::Items(vec!["k=a", "a=1"])))
        .with(Toy("b", 2, Behaviour::Items(vec!["k=b"])));
    let parallel = registry.load(&ctx(Profile::Extended));
    registry.parallel(false);
    assert_eq!(parallel, registry.load(&ctx(Profile::Extended)));
}

#[test]
fn selection() {
    let mut registry = Registry::new()
        .with(Toy("a", 3, Behaviour::Items(vec!["a=1"])))
        .with(Toy("b", 2, Behaviour::Items(vec!["b=1"])))
        .with(Toy("c", 1, Behaviour::Items(vec!["c=1"])));
    registry.disable("a");
    assert_eq!(items(&registry, Profile::Extended), ["b=1", "c=1"]);
    registry.enable("a").deny(["c"]);
    assert_eq!(items(&registry, Profile::Extended), ["a=1", "b=1"]);
    registry.allow(["b", "c"]);
    assert_eq!(items(&registry, Profile::Extended), ["b=1"]);
    let enabled: Vec<bool> = registry.infos().iter().map(|i| i.enabled).collect();
    assert_eq!(enabled, [false, true, false]);
}

#[test]
fn duplicate_ids_are_refused() {
    let mut registry = Registry::<Pairs>::new();
    registry.register(Toy("a", 1, Behaviour::Fail)).unwrap();
    assert_eq!(
        registry.register(Toy("a", 2, Behaviour::Fail)),
        Err(RegistryError::DuplicateProvider("a".into()))
    );
}

#[test]
fn failing_and_panicking_providers_are_warnings() {
    let registry = Registry::new()
        .with(Toy("ok", 3, Behaviour::Items(vec!["a=1"])))
        .with(Toy("Broken", 2, Behaviour::Fail))
        .with(Toy("Buggy", 1, Behaviour::Panic));
    let loaded = registry.load(&ctx(Profile::Extended));
    assert_eq!(loaded.items().count(), 1);
    let messages: Vec<String> = loaded.diagnostics.iter().map(ToString::to_string).collect();
    assert_eq!(
        messages,
        [
            "[Broken] Failed to load: disk on fire",
            "[Buggy] Failed to load: provider bug"
        ]
    );
}

#[test]
fn validation_order_differs_by_profile() {
    let registry = Registry::new()
        .with(Toy("high", 2, Behaviour::Items(vec!["k="])))
        .with(Toy("low", 1, Behaviour::Items(vec!["k=fallback"])));

    // Reference: dedup first; the invalid winner removes itself and the shadowed loser.
    let reference = registry.load(&ctx(Profile::Reference));
    assert!(reference.items().next().is_none());
    assert_eq!(
        reference.all[0].status,
        Status::Invalid {
            reason: "Item must have a value".into()
        }
    );
    assert_eq!(reference.all[1].status, Status::Shadowed { by: 0 });
    assert_eq!(
        reference.diagnostics[0].to_string(),
        "[high] Invalid item at k: Item must have a value"
    );

    // Extended E8: validate first; the valid lower-priority item survives.
    let extended = registry.load(&ctx(Profile::Extended));
    assert_eq!(
        extended.items().cloned().collect::<Vec<_>>(),
        ["k=fallback"]
    );
    assert_eq!(extended.all[1].status, Status::Active);
}

#[test]
fn an_unknown_home_has_no_user_sources() {
    use std::path::PathBuf;
    assert_eq!(LoadContext::new("/p", "").in_home(".cursor/rules"), None);
    assert_eq!(
        LoadContext::new("/p", "/h").in_home(".cursor/rules"),
        Some(PathBuf::from("/h/.cursor/rules"))
    );
}

/// Where each provider ran: a parallel load of several providers runs them on worker
/// threads; one provider, or a sequential load, runs on the caller's thread.
#[test]
fn parallel_loads_use_workers_only_for_several_providers() {
    use std::sync::{Arc, Mutex};
    use std::thread::ThreadId;

    struct Where(&'static str, Arc<Mutex<Vec<ThreadId>>>);
    impl Provider<Pairs> for Where {
        fn id(&self) -> &str {
            self.0
        }
        fn display_name(&self) -> &str {
            self.0
        }
        fn description(&self) -> &'static str {
            "records its thread"
        }
        fn priority(&self) -> i32 {
            1
        }
        fn load(&self, _: &LoadContext) -> Result<LoadResult<String>, ProviderError> {
            self.1.lock().unwrap().push(std::thread::current().id());
            Ok(LoadResult::new(vec![format!("{}=1", self.0)]))
        }
    }
    let here = std::thread::current().id();
    let run = |ids: &[&'static str], parallel: Option<bool>| {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let mut registry = Registry::new();
        for id in ids {
            registry = registry.with(Where(id, seen.clone()));
        }
        if let Some(parallel) = parallel {
            registry.parallel(parallel);
        }
        assert_eq!(
            registry.load(&ctx(Profile::Extended)).items().count(),
            ids.len()
        );
        seen.lock().unwrap().clone()
    };
    assert!(
        run(&["a", "b"], None).iter().all(|t| *t != here),
        "parallel by default"
    );
    assert!(run(&["a", "b"], Some(false)).iter().all(|t| *t == here));
    assert!(
        run(&["a"], None).iter().all(|t| *t == here),
        "one provider needs no worker"
    );
}

/// A provider that serves only the Extended profile ([`Provider::profiles`]) is skipped under
/// Reference: its `load` is not called (here it would panic, and a panic is a warning), it
/// loads nothing, and its info says which profiles it serves.
#[test]
fn a_provider_is_loaded_only_under_the_profiles_it_serves() {
    struct ExtendedOnly;
    impl Provider<Pairs> for ExtendedOnly {
        fn id(&self) -> &'static str {
            "extended-only"
        }
        fn display_name(&self) -> &'static str {
            "Extended only"
        }
        fn description(&self) -> &'static str {
            "panics when loaded under Reference"
        }
        fn priority(&self) -> i32 {
            10
        }
        fn profiles(&self) -> &'static [Profile] {
            &[Profile::Extended]
        }
        fn load(&self, ctx: &LoadContext) -> Result<LoadResult<String>, ProviderError> {
            assert_eq!(ctx.profile, Profile::Extended, "loaded under Reference");
            Ok(LoadResult::new(vec!["e=1".to_owned()]))
        }
    }
    let mut registry =
        Registry::new()
            .with(ExtendedOnly)
            .with(Toy("both", 5, Behaviour::Items(vec!["b=1"])));
    registry.parallel(false);
    let reference = registry.load(&ctx(Profile::Reference));
    assert_eq!(reference.items().cloned().collect::<Vec<_>>(), ["b=1"]);
    assert!(
        reference.diagnostics.is_empty(),
        "{:?}",
        reference.diagnostics
    );
    assert_eq!(items(&registry, Profile::Extended), ["e=1", "b=1"]);
    let infos = registry.infos();
    assert_eq!(infos[0].profiles, [Profile::Extended]);
    assert_eq!(infos[1].profiles, [Profile::Reference, Profile::Extended]);
}
