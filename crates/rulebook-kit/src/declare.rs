//! Tools whose whole knowledge is a list of files, as declarations (the way ripgrep's
//! `default_types` is a table, not code): [`declare_context_files!`](crate::declare_context_files)
//! writes a provider crate's provider, its tool and its view from the file names, the
//! provider's metadata and the reason the view gives.
//!
//! Such a tool reads each file whole, with no frontmatter, at the start of every task: one
//! always-apply rule a file (named after its stem), read at the project root by the
//! provider (Extended only) and in the working directory by the tool's view, which is
//! "documented, not verified" (the tool cannot be run here).

/// Declares a provider crate whose tool reads fixed files whole at start. It defines, in
/// the calling crate:
/// - the provider (a unit struct of the given name), its [`ProviderMeta`](crate::ProviderMeta)
///   `INFO` (Extended only), its [`ContextFiles`](crate::context_files::ContextFiles) `FILES`
///   (read at the project root) and `FIELD_POLICY` (raw bodies: the policy matters to
///   nothing);
/// - `host`, the tool's own view: the tool's struct, its `TOOL_INFO` and `emulate`, which
///   lists each file found in the working directory as loaded whole, with the notes given;
/// - `TOOL`, the handle the facade's table of tools lists.
///
/// ```
/// mod acme {
///     rulebook_kit::declare_context_files! {
///         /// The Acme provider (id `acme`, priority 40).
///         provider AcmeProvider {
///             id: "acme",
///             name: "Acme",
///             description: "Acme: .acme/notes.md at the project root (Extended)",
///             priority: 40,
///             files: [".acme/notes.md"],
///         }
///         /// Acme as a tool.
///         tool Acme {
///             source: "Acme's documentation",
///             reason: "the project's notes, added to every task",
///             notes: ["Acme also reads a file its settings name, which this view cannot see"],
///         }
///     }
/// }
///
/// use rulebook_kit::{LoadContext, Provider};
/// let dir = tempfile::tempdir()?;
/// std::fs::create_dir_all(dir.path().join(".acme"))?;
/// std::fs::write(dir.path().join(".acme/notes.md"), "Use pnpm.\n")?;
/// let loaded = acme::AcmeProvider.load(&LoadContext::new(dir.path(), "").profile(rulebook_kit::Profile::Extended))?;
/// assert_eq!(loaded.items[0].name, "notes");
///
/// let view = acme::TOOL.tool().emulate(&rulebook_kit::host::HostOptions::new(dir.path(), ""));
/// assert_eq!(view.loaded().count(), 1);
/// assert_eq!(view.prompt, "Use pnpm.");
/// assert_eq!(acme::TOOL.provenance(), "Acme: documented, not verified");
/// # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
/// ```
#[macro_export]
macro_rules! declare_context_files {
    (
        $(#[$provider_doc:meta])*
        provider $provider:ident {
            id: $id:literal,
            name: $name:literal,
            description: $description:literal,
            priority: $priority:literal,
            files: [$($file:literal),+ $(,)?] $(,)?
        }
        $(#[$tool_doc:meta])*
        tool $tool:ident {
            source: $source:literal,
            reason: $reason:literal,
            notes: [$($note:literal),* $(,)?] $(,)?
        }
    ) => {
        #[doc = concat!($name, ", for the table of tools: `--as ", $id, "` is its [`host::emulate`].")]
        pub const TOOL: $crate::host::Host = $crate::host::Host::new(&host::$tool);

        #[doc = concat!($name, " reads no frontmatter; the policy matters to nothing (bodies are raw).")]
        pub const FIELD_POLICY: $crate::coerce::FieldPolicy = $crate::coerce::FieldPolicy::new(
            $crate::coerce::DescriptionPolicy::StringOnly,
            $crate::coerce::AlwaysApplyPolicy::Boolean,
            $crate::coerce::GlobsPolicy::StringsOnly,
        );

        #[doc = concat!("Where ", $name, "'s files are: at the project root.")]
        pub const FILES: $crate::context_files::ContextFiles = $crate::context_files::ContextFiles::new(
            &[$($file),+],
            $crate::context_files::Chain::Root,
        );

        $(#[$provider_doc])*
        #[derive(Debug, Clone, Copy, Default)]
        pub struct $provider;

        /// What the provider is: [`Provider::info`].
        pub static INFO: $crate::ProviderMeta =
            $crate::ProviderMeta::new($id, $name, $description, $priority)
                .with_profiles(&[$crate::Profile::Extended]);

        impl $crate::Provider<$crate::RuleCapability> for $provider {
            fn info(&self) -> &$crate::ProviderMeta {
                &INFO
            }

            fn load(
                &self,
                ctx: &$crate::LoadContext,
            ) -> ::std::result::Result<$crate::LoadResult<$crate::Rule>, $crate::ProviderError> {
                let loader = $crate::FileLoader::new(ctx, $id, $name, FIELD_POLICY).raw(true);
                let mut out = $crate::LoadResult::default();
                FILES.load(&loader, ctx, &mut out);
                Ok(out)
            }
        }

        #[doc = concat!($name, " as the tool itself loads its rules (`--as ", $id, "`), from ", $source, ": it cannot be run here, so the view says \"documented, not verified\" (behaviour.md §13).")]
        pub mod host {
            use $crate::host::documented::{render, start, whole};
            use $crate::host::{HostOptions, HostView, Scope, Tool, ToolInfo};

            #[doc = concat!($name, ": each of its files in the working directory, whole, at the start of every task.")]
            pub fn emulate(options: &HostOptions) -> HostView {
                let mut view = start(super::TOOL);
                $(view.notes.push($note.to_owned());)*
                let mut bodies = Vec::new();
                for name in super::FILES.names {
                    whole(&mut view, &mut bodies, options.cwd().join(name), Scope::Project, $reason);
                }
                render(&mut view, &bodies);
                view
            }

            $(#[$tool_doc])*
            #[derive(Debug, Clone, Copy, Default)]
            pub struct $tool;

            /// What the tool is: [`Tool::info`].
            pub static TOOL_INFO: ToolInfo = ToolInfo::new($id, $name, $id, $source);

            impl Tool for $tool {
                fn info(&self) -> &ToolInfo {
                    &TOOL_INFO
                }

                fn emulate(&self, options: &HostOptions) -> HostView {
                    emulate(options)
                }
            }
        }
    };
}
