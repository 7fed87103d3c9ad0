//! State that belongs to a node rather than to one agent on it: what the agents of several
//! flows on one node share. INTCP keeps a content store and a table of pending interests here
//! for each content name (docs/intcp-protocol.md §9): every flow of that name passing the node
//! reads and fills the same ones, as an ICN router's would.
//!
//! The network layer does not know what a transport keeps: a slot holds any type, and the
//! transport that made it reads it back as that type. Slots are made while a run is built (an
//! agent keeps its slot's number); during the run an agent reaches its node's slots through
//! `Ctx::node_state`.

use super::NodeId;
use std::any::Any;
use std::collections::BTreeMap;

/// A slot's number, kept by the agents that share it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NodeSlot(u32);

#[derive(Default)]
pub struct NodeStates {
    slots: Vec<(NodeId, Box<dyn Any>)>,
    /// Named slots, so that the flows of one name on one node find the same one.
    named: BTreeMap<(NodeId, String), NodeSlot>,
}

impl NodeStates {
    /// A new slot on `node`, holding `state`.
    pub fn add<T: 'static>(&mut self, node: NodeId, state: T) -> NodeSlot {
        self.slots.push((node, Box::new(state)));
        NodeSlot(self.slots.len() as u32 - 1)
    }

    /// The slot of `name` on `node`, made with `make` the first time it is asked for.
    pub fn named<T: 'static>(&mut self, node: NodeId, name: &str, make: impl FnOnce() -> T) -> NodeSlot {
        if let Some(&slot) = self.named.get(&(node, name.to_string())) {
            return slot;
        }
        let slot = self.add(node, make());
        self.named.insert((node, name.to_string()), slot);
        slot
    }

    pub fn get<T: 'static>(&self, slot: NodeSlot) -> &T {
        self.slots[slot.0 as usize].1.downcast_ref().expect("a node slot is read as the type that made it")
    }

    pub fn get_mut<T: 'static>(&mut self, slot: NodeSlot) -> &mut T {
        self.slots[slot.0 as usize].1.downcast_mut().expect("a node slot is read as the type that made it")
    }

    /// The node a slot is on.
    pub fn node_of(&self, slot: NodeSlot) -> NodeId {
        self.slots[slot.0 as usize].0
    }

    /// Every slot holding a `T`, in the order they were made.
    pub fn all<T: 'static>(&self) -> impl Iterator<Item = &T> {
        self.slots.iter().filter_map(|(_, s)| s.downcast_ref())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_name_on_one_node_is_one_slot() {
        let mut s = NodeStates::default();
        let a = s.named(3, "video", || 1u64);
        let b = s.named(3, "video", || 2u64);
        let other_node = s.named(4, "video", || 5u64);
        let other_name = s.named(3, "audio", || 7u64);
        assert_eq!(a, b);
        assert_ne!(a, other_node);
        assert_ne!(a, other_name);
        *s.get_mut::<u64>(b) += 10;
        assert_eq!(*s.get::<u64>(a), 11);
        assert_eq!(s.node_of(other_node), 4);
    }

    #[test]
    fn unnamed_slots_are_never_shared() {
        let mut s = NodeStates::default();
        let a = s.add(1, 0u8);
        let b = s.add(1, 0u8);
        assert_ne!(a, b);
    }

    #[test]
    fn all_lists_the_slots_of_one_type() {
        let mut s = NodeStates::default();
        s.add(0, 1u32);
        s.add(0, "not a number");
        s.add(1, 2u32);
        assert_eq!(s.all::<u32>().copied().collect::<Vec<_>>(), vec![1, 2]);
    }

    #[test]
    #[should_panic(expected = "read as the type that made it")]
    fn reading_a_slot_as_another_type_is_a_bug() {
        let mut s = NodeStates::default();
        let a = s.add(0, 1u32);
        s.get::<u64>(a);
    }
}
