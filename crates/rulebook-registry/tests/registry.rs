//! The registry with a toy capability: ordering, selection, failures, dedup and validation.
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use rulebook_registry::{
    Capability, LoadContext, LoadResult, Provider, ProviderError, ProviderMeta, Registry,
    RegistryError, Status,
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

struct Toy(ProviderMeta, Behaviour);

fn toy(id: &'static str, priority: i32, behaviour: Behaviour) -> Toy {
    Toy(ProviderMeta::new(id, id, "toy", priority), behaviour)
}

impl Provider<Pairs> for Toy {
    fn info(&self) -> &ProviderMeta {
        &self.0
    }
    fn load(&self, _: &LoadContext) -> Result<LoadResult<String>, ProviderError> {
        match &self.1 {
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
        .with(toy("cline", 40, Behaviour::Items(vec!["x=cline"])))
        .with(toy("cursor", 50, Behaviour::Items(vec!["x=cursor", "c=1"])))
        .with(toy(
            "windsurf",
            50,
            Behaviour::Items(vec!["x=windsurf", "w=1"]),
        ))
        .with(toy("native", 100, Behaviour::Items(vec!["n=1"])));
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
        .with(toy("a", 1, Behaviour::Items(vec!["k=a", "a=1"])))
        .with(toy("b", 2, Behaviour::Items(vec!["k=b"])));
    let parallel = registry.load(&ctx(Profile::Extended));
    registry.parallel(false);
    assert_eq!(parallel, registry.load(&ctx(Profile::Extended)));
}

#[test]
fn selection() {
    let mut registry = Registry::new()
        .with(toy("a", 3, Behaviour::Items(vec!["a=1"])))
        .with(toy("b", 2, Behaviour::Items(vec!["b=1"])))
        .with(toy("c", 1, Behaviour::Items(vec!["c=1"])));
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
    registry.register(toy("a", 1, Behaviour::Fail)).unwrap();
    assert_eq!(
        registry.register(toy("a", 2, Behaviour::Fail)),
        Err(RegistryError::DuplicateProvider("a".into()))
    );
}

#[test]
fn failing_and_panicking_providers_are_warnings() {
    let registry = Registry::new()
        .with(toy("ok", 3, Behaviour::Items(vec!["a=1"])))
        .with(toy("Broken", 2, Behaviour::Fail))
        .with(toy("Buggy", 1, Behaviour::Panic));
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
        .with(toy("high", 2, Behaviour::Items(vec!["k="])))
        .with(toy("low", 1, Behaviour::Items(vec!["k=fallback"])));

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

/// Where each provider ran: a parallel load of several providers runs them on the caller's
/// thread and on worker threads at once (on a machine of one core, on the caller's alone);
/// one provider, or a sequential load, runs on the caller's thread.
#[test]
fn parallel_loads_use_workers_only_for_several_providers() {
    use std::sync::{Arc, Condvar, Mutex};
    use std::thread::ThreadId;
    use std::time::Duration;

    /// Records its thread; with a meeting, waits (a while at most) for the other providers
    /// to be running too, so that two providers are seen on two threads at once.
    struct Where(
        ProviderMeta,
        Arc<Mutex<Vec<ThreadId>>>,
        Option<Arc<(Mutex<usize>, Condvar)>>,
    );
    impl Provider<Pairs> for Where {
        fn info(&self) -> &ProviderMeta {
            &self.0
        }
        fn load(&self, _: &LoadContext) -> Result<LoadResult<String>, ProviderError> {
            self.1.lock().unwrap().push(std::thread::current().id());
            if let Some(meeting) = &self.2 {
                let (arrived, all) = &**meeting;
                let mut arrived = arrived.lock().unwrap();
                *arrived += 1;
                all.notify_all();
                let _ = all
                    .wait_timeout_while(arrived, Duration::from_secs(10), |n| *n < 2)
                    .unwrap();
            }
            Ok(LoadResult::new(vec![format!("{}=1", self.0.id())]))
        }
    }
    let here = std::thread::current().id();
    let run = |ids: &[&'static str], parallel: Option<bool>, meet: bool| {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let meeting = meet.then(|| Arc::new((Mutex::new(0), Condvar::new())));
        let mut registry = Registry::new();
        for id in ids {
            registry = registry.with(Where(
                ProviderMeta::new(id, id, "records its thread", 1),
                seen.clone(),
                meeting.clone(),
            ));
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
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let parallel = run(&["a", "b"], None, cores > 1);
    assert!(parallel.contains(&here), "the caller works too");
    if cores > 1 {
        assert!(
            parallel.iter().any(|t| *t != here),
            "parallel by default: {parallel:?}"
        );
    }
    assert!(
        run(&["a", "b"], Some(false), false)
            .iter()
            .all(|t| *t == here)
    );
    assert!(
        run(&["a"], None, false).iter().all(|t| *t == here),
        "one provider needs no worker"
    );
}

/// A provider that serves only the Extended profile ([`ProviderMeta::profiles`]) is skipped under
/// Reference: its `load` is not called (here it would panic, and a panic is a warning), it
/// loads nothing, and its info says which profiles it serves.
#[test]
fn a_provider_is_loaded_only_under_the_profiles_it_serves() {
    struct ExtendedOnly;
    impl Provider<Pairs> for ExtendedOnly {
        fn info(&self) -> &ProviderMeta {
            static INFO: ProviderMeta = ProviderMeta::new(
                "extended-only",
                "Extended only",
                "panics when loaded under Reference",
                10,
            )
            .with_profiles(&[Profile::Extended]);
            &INFO
        }
        fn load(&self, ctx: &LoadContext) -> Result<LoadResult<String>, ProviderError> {
            assert_eq!(ctx.profile, Profile::Extended, "loaded under Reference");
            Ok(LoadResult::new(vec!["e=1".to_owned()]))
        }
    }
    let mut registry =
        Registry::new()
            .with(ExtendedOnly)
            .with(toy("both", 5, Behaviour::Items(vec!["b=1"])));
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
