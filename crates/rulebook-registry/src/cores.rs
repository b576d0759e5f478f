//! Which of the machine's cores are busy with a load ([`Busy`], [`idle`]): a loader with
//! many files to read asks for a helper thread only while a core is idle, so the
//! providers' workers and a folder's helpers never outnumber the cores.
//!
//! This is a heuristic for speed alone: what a load gives never depends on it.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The threads counted busy now.
static BUSY: AtomicUsize = AtomicUsize::new(0);

/// The machine's cores (one when unknown).
fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, std::num::NonZero::get))
}

/// Counts the thread that holds it as busy (a provider's worker, a loader's helper, the
/// tools' views beside a discovery), until dropped.
///
/// ```
/// use rulebook_registry::cores::{Busy, idle};
///
/// let busy: Vec<Busy> = (0..std::thread::available_parallelism().unwrap().get())
///     .map(|_| Busy::enter())
///     .collect();
/// assert!(!idle());
/// drop(busy);
/// ```
#[derive(Debug)]
#[must_use = "the thread is counted busy only while this is held"]
pub struct Busy(());

impl Busy {
    /// Counts this thread busy.
    pub fn enter() -> Self {
        BUSY.fetch_add(1, Ordering::Relaxed);
        Self(())
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        BUSY.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Whether fewer threads are counted busy than the machine has cores, the thread asking
/// included when it holds a [`Busy`].
pub fn idle() -> bool {
    BUSY.load(Ordering::Relaxed) < cores()
}
