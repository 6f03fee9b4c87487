//! A family's own full result of one gold/run pair, carried beside its unit statistics for the
//! layers above that render it in the family's own layout (the `hipe` family: the official
//! scorer's `eval::score` result, which a HIPE campaign writes as the official per-run files).
//! Opaque here: whoever knows the type takes it out ([`Full::take`]), once.

use std::any::Any;
use std::sync::{Arc, Mutex};

/// The full result, if the family gives one; shared by clones of the statistics and taken out
/// by the first who asks for it (so it is dropped as soon as it has been rendered).
#[derive(Clone, Default)]
pub struct Full(Option<Arc<Slot>>);

/// Where the result waits until it is taken.
type Slot = Mutex<Option<Box<dyn Any + Send>>>;

impl Full {
    /// A full result.
    pub fn new<T: Any + Send>(value: T) -> Self {
        Full(Some(Arc::new(Mutex::new(Some(Box::new(value))))))
    }

    /// Takes the result out if it is a `T` (then no clone has it any more).
    pub fn take<T: Any + Send>(&self) -> Option<T> {
        let cell = self.0.as_ref()?;
        let mut slot = cell.lock().ok()?;
        match slot.take()?.downcast::<T>() {
            Ok(v) => Some(*v),
            Err(other) => {
                *slot = Some(other);
                None
            }
        }
    }
}

impl std::fmt::Debug for Full {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "Full(..)"
        } else {
            "Full(-)"
        })
    }
}

/// Statistics are compared by their numbers: the full result is not part of that.
impl PartialEq for Full {
    fn eq(&self, _: &Full) -> bool {
        true
    }
}
