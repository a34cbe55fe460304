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

/// What a set of builders reaches at a scope: what builders
/// identification scores a candidate set by.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct Reach {
    /// Values in the field extensions of the structures made (with
    /// `config.graphs`; else 0).
    pub field_values: usize,
    /// Structures made, variants included: a builder that only reaches
    /// hidden state (a `remove` that fills a free list) counts.
    pub structures: usize,
}

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
    /// Per state, its one-input one-output calls as (output, the operations
    /// that make it), merged: many calls and operations lead to the same
    /// state, and a closure then looks at each pair once.
    step_start: Vec<u32>,
    steps: Vec<(u32, u64)>,
}

/// Operations a step's mask can name; with more, every call stays an edge.
const MASK_BITS: usize = 64;

#[derive(Debug, Clone, Copy)]
struct Edge {
    op: u16,
    inputs: u8,
    outputs: u8,
    start: u32,
}

impl StateGraph {
    /// Adds a state with its pairs; states are numbered in order.
    pub(super) fn add_state(&mut self, pairs: Vec<u32>) {
        self.pairs.push(pairs);
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
        // Pairs are numbered densely as states bring them.
        self.pair_count = self.pairs.iter().flatten().max().map_or(0, |&p| p as usize + 1);
        let masks = self.edges.iter().all(|edge| usize::from(edge.op) < MASK_BITS);
        let is_step = |edge: &Edge| masks && edge.inputs == 1 && edge.outputs == 1;
        // One-input one-output calls: sorted by (input, output), operations merged.
        let mut steps: Vec<(u32, u32, u64)> = self
            .edges
            .iter()
            .filter(|edge| is_step(edge))
            .map(|edge| (self.inputs(edge)[0], self.outputs(edge)[0], 1u64 << edge.op))
            .collect();
        steps.sort_unstable_by_key(|&(input, output, _)| (input, output));
        let mut merged: Vec<(u32, u32, u64)> = Vec::with_capacity(steps.len() / 2);
        for (input, output, mask) in steps {
            match merged.last_mut() {
                Some(last) if last.0 == input && last.1 == output => last.2 |= mask,
                _ => merged.push((input, output, mask)),
            }
        }
        self.step_start = starts(states, merged.iter().map(|&(input, _, _)| input));
        self.steps = merged.into_iter().map(|(_, output, mask)| (output, mask)).collect();
        // The other calls, by each of their inputs.
        let others: Vec<usize> = (0..self.edges.len()).filter(|&e| !is_step(&self.edges[e])).collect();
        self.edges = others.iter().map(|&e| self.edges[e]).collect();
        let mut by_input: Vec<(u32, u32)> = Vec::new();
        for (e, edge) in self.edges.iter().enumerate() {
            by_input.extend(self.inputs(edge).iter().map(|&input| (input, e as u32)));
        }
        by_input.sort_unstable();
        self.out_start = starts(states, by_input.iter().map(|&(input, _)| input));
        self.out_edges = by_input.into_iter().map(|(_, e)| e).collect();
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
        let mask = chosen.iter().take(MASK_BITS).enumerate().fold(0u64, |m, (op, &on)| m | (u64::from(on) << op));
        while let Some(state) = queue.pop() {
            let (from, to) = (self.step_start[state as usize], self.step_start[state as usize + 1]);
            for &(output, ops) in &self.steps[from as usize..to as usize] {
                if ops & mask != 0 && !std::mem::replace(&mut reached[output as usize], true) {
                    queue.push(output);
                }
            }
            let (from, to) = (self.out_start[state as usize], self.out_start[state as usize + 1]);
            for &e in &self.out_edges[from as usize..to as usize] {
                let edge = &self.edges[e as usize];
                if !on(edge) {
                    continue;
                }
                if edge.inputs == 1 {
                    fire(edge, &mut reached, &mut queue);
                } else {
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

/// CSR offsets: for keys sorted ascending, where each of `0..n` starts.
fn starts(n: usize, sorted: impl Iterator<Item = u32>) -> Vec<u32> {
    let mut starts = vec![0u32; n + 1];
    for key in sorted {
        starts[key as usize + 1] += 1;
    }
    for i in 1..starts.len() {
        starts[i] += starts[i - 1];
    }
    starts
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Constructor 0 makes state 0; op 1 takes 0 to 1; op 2 needs both 0
    /// and 1 to make 2; op 3 leaves 1 as it was.
    fn small() -> StateGraph {
        let mut graph = StateGraph::default();
        graph.add_state(vec![0]);
        graph.add_state(vec![1]);
        graph.add_state(vec![1, 2]);
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
