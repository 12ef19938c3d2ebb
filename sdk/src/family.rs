//! Routing families a pack declares: the classes of requests its capabilities serve,
//! with the cue words that send a request there. The host builds its router from the
//! families of every loaded pack.

/// One family. A capability's family must be one its pack declares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Family {
    pub(crate) name: &'static str,
    pub(crate) summary: &'static str,
    pub(crate) cues: Vec<(u8, &'static [&'static str])>,
}

impl Family {
    /// `name` is a lowercase identifier (`lighting`); `summary` is one line.
    pub fn new(name: &'static str, summary: &'static str) -> Self {
        Family { name, summary, cues: Vec::new() }
    }

    /// Cue words with their weight (1..10): a phrase with a space matches as a whole, a
    /// single word as a stem (`light` matches `lights`). Several calls add several weights.
    pub fn cues(mut self, weight: u8, phrases: &'static [&'static str]) -> Self {
        self.cues.push((weight, phrases));
        self
    }

    pub fn name(&self) -> &'static str {
        self.name
    }
}
