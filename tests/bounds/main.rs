//! The memory bounds (issue 33, class 11), in a binary of their own (`cargo test --test
//! bounds`): a child's peak resident memory as `wait4` reports it includes the high-water
//! mark of the process that spawned it (Linux records the old address space's peak at
//! `exec`, and a spawned child starts in its parent's). Measured from the `it` binary, whose
//! other tests hold hundreds of MB of data at once, the figure would be theirs; this binary
//! holds nothing else.

#[path = "../common/mod.rs"]
mod common;

mod agree;
mod input;
mod mentions;
