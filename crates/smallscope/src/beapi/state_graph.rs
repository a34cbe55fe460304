//! The state graph of one search: every state it kept, and every call
//! between them. From it, what any subset of the operations reaches is a
//! closure over the graph instead of a search of its own.
//!
//! A search with builders `S` keeps exactly the states that constructors
//! in `S` make and that calls of `S` make from kept states, within the
//! scope: the least set closed under those calls. A search with every
//! operation tries each call on each tuple of kept states once, so its
//! graph holds every call a search with `S` could make, and the closure
//! over the edges of `S` is that search's set of states. Calls are
//! deterministic (the engine relies on it everywhere), so this is exact.
//! It costs one search with every operation, then time linear in the
//! edges out of the states reached per subset: what makes the genetic
//! algorithm's hundreds of fitness measures affordable.

use super::Reach;

/// Calls between states, and the field-extension pairs of each state.
#[derive(Debug, Default)]
pub struct StateGraph {
    /// Per state, the numbers of its pairs (see [`crate::heap::PairNumbers`]).
    pairs: Vec<Vec<u32>>,
    pair_count: usize,
    edges: Vec<Edge>,
    /// Each edge's distinct inputs, then its outputs.
    ends: Vec<u32>,
    /// Per state, the edges it is an input of (built by [`StateGraph::seal`]).
    out_start: Vec<u32>,
    out_edges: Vec<u32>,
}

#[derive(Debug, Clone, Copy)]
struct Edge {
    op: u16,
    inputs: u8,
    outputs: u8,
    start: u32,
}

impl StateGraph {
    /// Adds a state with its pairs; states are numbered in order.
    pub(super) fn add_state(&mut self, pairs: Vec<u32>, pair_count: usize) {
        self.pairs.push(pairs);
        self.pair_count = pair_count;
    }

    /// Adds a call of `op` from `inputs` to `outputs` (states). A call
    /// that leaves its one input as it was adds nothing to any closure.
    pub(super) fn add_call(&mut self, op: usize, inputs: &[u32], outputs: &[u32]) {
        if outputs.is_empty() || (inputs.len() == 1 && outputs == inputs) {
            return;
        }
        let start = self.ends.len() as u32;
        let mut distinct = 0u8;
        for (k, &input) in inputs.iter().enumerate() {
            if !inputs[..k].contains(&input) {
                self.ends.push(input);
                distinct += 1;
            }
        }
        self.ends.extend_from_slice(outputs);
        self.edges.push(Edge { op: op as u16, inputs: distinct, outputs: outputs.len() as u8, start });
    }

    /// Indexes the edges by input; called once the search ends.
    pub(super) fn seal(&mut self) {
        let states = self.pairs.len();
        let mut counts = vec![0u32; states + 1];
        for edge in &self.edges {
            for &input in self.inputs(edge) {
                counts[input as usize + 1] += 1;
            }
        }
        for i in 1..counts.len() {
            counts[i] += counts[i - 1];
        }
        let mut next = counts.clone();
        let mut out_edges = vec![0u32; counts[states] as usize];
        for (e, edge) in self.edges.iter().enumerate() {
            for &input in &self.ends[edge.start as usize..edge.start as usize + usize::from(edge.inputs)] {
                out_edges[next[input as usize] as usize] = e as u32;
                next[input as usize] += 1;
            }
        }
        self.out_start = counts;
        self.out_edges = out_edges;
    }

    fn inputs(&self, edge: &Edge) -> &[u32] {
        &self.ends[edge.start as usize..edge.start as usize + usize::from(edge.inputs)]
    }

    fn outputs(&self, edge: &Edge) -> &[u32] {
        let from = edge.start as usize + usize::from(edge.inputs);
        &self.ends[from..from + usize::from(edge.outputs)]
    }

    /// States in the graph.
    pub fn states(&self) -> usize {
        self.pairs.len()
    }

    /// What a search whose builders are the operations `chosen[op]` marks
    /// reaches: its states, and the pairs of their field extensions.
    pub fn reach(&self, chosen: &[bool]) -> Reach {
        let on = |edge: &Edge| chosen.get(usize::from(edge.op)).copied().unwrap_or(false);
        let mut reached = vec![false; self.pairs.len()];
        let mut waiting: Vec<u8> = self.edges.iter().map(|edge| edge.inputs).collect();
        let mut queue = Vec::new();
        let fire = |edge: &Edge, reached: &mut Vec<bool>, queue: &mut Vec<u32>| {
            for &output in self.outputs(edge) {
                if !std::mem::replace(&mut reached[output as usize], true) {
                    queue.push(output);
                }
            }
        };
        for edge in self.edges.iter().filter(|edge| edge.inputs == 0 && on(edge)) {
            fire(edge, &mut reached, &mut queue);
        }
        while let Some(state) = queue.pop() {
            let (from, to) = (self.out_start[state as usize], self.out_start[state as usize + 1]);
            for &e in &self.out_edges[from as usize..to as usize] {
                let edge = &self.edges[e as usize];
                if on(edge) {
                    waiting[e as usize] -= 1;
                    if waiting[e as usize] == 0 {
                        fire(edge, &mut reached, &mut queue);
                    }
                }
            }
        }
        let mut seen = vec![false; self.pair_count];
        let mut structures = 0;
        for (state, pairs) in self.pairs.iter().enumerate() {
            if reached[state] {
                structures += 1;
                for &pair in pairs {
                    seen[pair as usize] = true;
                }
            }
        }
        Reach { field_values: seen.iter().filter(|&&s| s).count(), structures }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Constructor 0 makes state 0; op 1 takes 0 to 1; op 2 needs both 0
    /// and 1 to make 2; op 3 leaves 1 as it was.
    fn small() -> StateGraph {
        let mut graph = StateGraph::default();
        graph.add_state(vec![0], 3);
        graph.add_state(vec![1], 3);
        graph.add_state(vec![1, 2], 3);
        graph.add_call(0, &[], &[0]);
        graph.add_call(1, &[0], &[1]);
        graph.add_call(2, &[0, 1], &[2, 1]);
        graph.add_call(3, &[1], &[1]);
        graph.add_call(1, &[2, 2], &[0]);
        graph.seal();
        graph
    }

    #[test]
    fn a_closure_needs_every_input_of_a_call() {
        let graph = small();
        let reach = |ops: [bool; 4]| graph.reach(&ops);
        assert_eq!(reach([false, true, true, true]), Reach { field_values: 0, structures: 0 });
        assert_eq!(reach([true, false, false, false]), Reach { field_values: 1, structures: 1 });
        assert_eq!(reach([true, true, false, false]), Reach { field_values: 2, structures: 2 });
        assert_eq!(reach([true, false, true, false]), Reach { field_values: 1, structures: 1 });
        assert_eq!(reach([true, true, true, false]), Reach { field_values: 3, structures: 3 });
    }
}
