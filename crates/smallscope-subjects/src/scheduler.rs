//! `scheduler`: a priority process scheduler, after the Siemens/SIR
//! `schedule` program (the `Scheduler` benchmark of Visser et al. and of the
//! builders-identification papers).
//!
//! Processes have a pid and a priority `1..=MAX_PRIO` (3 is the highest).
//! Each priority has a ready queue, a FIFO linked list of processes; a
//! blocked queue holds processes that wait, with the priority they return
//! at; and at most one process is current (running). The commands are
//! `schedule`'s: `NEW_JOB`, `UPGRADE_PRIO`, `BLOCK`, `UNBLOCK`,
//! `QUANTUM_EXPIRE`, `FINISH` and `FLUSH`. Dispatching takes the first
//! process of the highest non-empty ready queue, and happens whenever no
//! process is current, so the scheduler is never idle while a process is
//! ready. There is no preemption: a new or upgraded process waits until the
//! current one blocks, expires or finishes.
//!
//! Heap shape: arena-based. `Scheduler { procs: Vec<Process>, ready: [Queue;
//! 3], blocked: Queue, current }` where `current` indexes into `procs`, each
//! `Queue { first, last, mem_count }` (schedule's `List`, stored inline) and
//! `Process { pid, prio, next }` link by index. Slots of finished processes
//! go to a `free` list that is not part of the structure. At scope N a
//! structure holds at most N processes, and new jobs can be given the
//! priorities `1..N` (the integers are `0..N`), so at scope 3 priority 3 is
//! reached only through `upgrade_prio`.
//!
//! Adaptations:
//! - `schedule` numbers processes with an ever-growing counter
//!   (`alloc_proc_num++`); here a new job takes the smallest pid not in use
//!   (from 0), so pids stay below the number of processes and the structures
//!   of a scope are finitely many (with a counter, `new_job finish` would
//!   make a new structure forever and BEAPI would never end);
//! - `schedule` picks the process a command acts on (`schedule()`) at that
//!   command, and keeps it queued; here the dispatched process leaves its
//!   queue and is held in `current` until it blocks, expires or finishes;
//! - `upgrade_prio` and `unblock` take the process's position in its queue
//!   (`0..len`) instead of schedule's `ratio` (a float in `[0, 1)` from which
//!   `find_nth` computes `count * ratio + 1`): BEAPI draws small integers;
//! - commands that schedule ignores (an upgrade from the top priority, an
//!   empty queue, no current process) are misuse here (`Err`).
//!
//! Observers: `current_pid`, `queue_len`, `blocked_len`, `process_count` and
//! `is_idle` (they take `&self`). `quantum_expire`, `unblock` and `flush`
//! change the structure but are not needed as builders.
//!
//! A sufficient minimal builder set is `new, new_job, upgrade_prio, block,
//! finish`. Each is needed:
//! - `new` is the only constructor and `new_job` the only way to create a
//!   process;
//! - `block` is the only way to fill the blocked queue;
//! - `finish` is the only builder here that retires a process, which pid sets
//!   with gaps need (pid 1 without pid 0);
//! - `upgrade_prio` is the only way to reach priority 3 at scope 3, and at
//!   larger scopes it still gives pid arrangements the others cannot: for
//!   current pid 0 at priority 1 with only pid 2 waiting, at priority 2,
//!   pid 2 must be created while pid 1 exists, and finishing pid 1 means
//!   dispatching it, after which pid 2 would run before pid 0 unless it
//!   waited at priority 1 and was upgraded afterwards.
//!
//! And they suffice: `quantum_expire` and `unblock` only put a process back
//! at the end of a ready queue, and `flush` only finishes processes. As
//! `new_job` never preempts, the process can instead be created at the end of
//! the queue it ends up in, and `finish` retires processes so that the new
//! one gets the pid it needs (a new job takes the smallest free pid); the
//! blocked queue is built by blocking processes in its order. BEAPI finds the
//! same structures with these five builders as with the whole API: 775,
//! 10 573 and 168 871 at scopes 3, 4 and 5 (the tests below check 3 and 4).
//! Other minimal sets exist: with `unblock`, `flush` can stand for `finish`
//! (block what should survive, flush, unblock it), and from scope 4 on, where
//! `new_job` can give priority 3, `unblock` can stand for `upgrade_prio`
//! (`new, new_job, block, unblock, finish`).
//!
//! Equality (`PartialEq`, `Eq`, `Hash`, `PartialOrd`, `Ord`) is by the
//! scheduler's state: the current process, then each ready queue from
//! priority 1 to 3, then the blocked queue, as `(place, pid, priority)`
//! triples in queue order; the arena layout plays no part.

use smallscope::Heap;

use crate::arena::{self, Reached};

/// The highest priority (schedule's `MAXPRIO`).
pub const MAX_PRIO: i32 = 3;

/// A command that `schedule` would ignore: API misuse.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SchedError {
    /// A priority outside `1..=MAX_PRIO`, or `MAX_PRIO` for an upgrade.
    BadPriority(i32),
    /// A position past the end of the queue.
    NoSuchProcess { position: usize, len: usize },
    /// There is no current process.
    Idle,
}

#[derive(Heap, Clone, Debug, Default)]
pub struct Scheduler {
    #[heap(arena)]
    procs: Vec<Process>,
    /// `ready[p - 1]` is the ready queue of priority `p`.
    ready: [Queue; 3],
    blocked: Queue,
    #[heap(index = "procs")]
    current: Option<usize>,
    /// Arena slots of finished processes.
    #[heap(skip)]
    free: Vec<usize>,
}

/// schedule's `List`: a FIFO of processes linked through `next`.
#[derive(Heap, Clone, Debug, Default)]
struct Queue {
    #[heap(index = "procs")]
    first: Option<usize>,
    #[heap(index = "procs")]
    last: Option<usize>,
    mem_count: usize,
}

/// schedule's `Ele`: a process.
#[derive(Heap, Clone, Debug)]
struct Process {
    pid: i32,
    prio: i32,
    #[heap(index = "procs")]
    next: Option<usize>,
}

#[smallscope::api(name = "scheduler", rep_ok = rep_ok)]
impl Scheduler {
    /// No processes.
    pub fn new() -> Self {
        Scheduler::default()
    }

    /// `NEW_JOB` (`add_process`): a process with the smallest free pid,
    /// appended to the ready queue of `prio`; dispatched if none is current.
    /// Returns its pid.
    pub fn new_job(&mut self, prio: i32) -> Result<i32, SchedError> {
        if !(1..=MAX_PRIO).contains(&prio) {
            return Err(SchedError::BadPriority(prio));
        }
        let pid = self.free_pid();
        let node = self.alloc(Process { pid, prio, next: None });
        self.ready[Self::slot(prio)].push_back(&mut self.procs, node);
        self.dispatch();
        Ok(pid)
    }

    /// `UPGRADE_PRIO` (`upgrade_process_prio`): moves the process at
    /// `position` of the ready queue of `prio` to the end of the queue of
    /// `prio + 1`. Returns its pid.
    pub fn upgrade_prio(&mut self, prio: i32, position: usize) -> Result<i32, SchedError> {
        if !(1..MAX_PRIO).contains(&prio) {
            return Err(SchedError::BadPriority(prio));
        }
        let node = self.ready[Self::slot(prio)].remove_at(&mut self.procs, position)?;
        self.procs[node].prio = prio + 1;
        self.ready[Self::slot(prio + 1)].push_back(&mut self.procs, node);
        Ok(self.procs[node].pid)
    }

    /// `BLOCK` (`block_process`): the current process goes to the end of the
    /// blocked queue, and the next one is dispatched. Returns its pid.
    pub fn block(&mut self) -> Result<i32, SchedError> {
        let node = self.current.take().ok_or(SchedError::Idle)?;
        self.blocked.push_back(&mut self.procs, node);
        self.dispatch();
        Ok(self.procs[node].pid)
    }

    /// `UNBLOCK` (`unblock_process`): the blocked process at `position` goes
    /// back to the end of the ready queue of its priority (and is dispatched
    /// if none is current). Returns its pid.
    pub fn unblock(&mut self, position: usize) -> Result<i32, SchedError> {
        let node = self.blocked.remove_at(&mut self.procs, position)?;
        Ok(self.make_ready(node))
    }

    /// `QUANTUM_EXPIRE`: the current process goes to the end of the ready
    /// queue of its priority, and the first of the highest non-empty queue is
    /// dispatched (the same process if it is alone at the top). Returns the
    /// pid of the process whose quantum expired.
    pub fn quantum_expire(&mut self) -> Result<i32, SchedError> {
        let node = self.current.take().ok_or(SchedError::Idle)?;
        Ok(self.make_ready(node))
    }

    /// `FINISH` (`finish_process`): the current process terminates and the
    /// next one is dispatched. Returns its pid.
    pub fn finish(&mut self) -> Result<i32, SchedError> {
        let node = self.current.take().ok_or(SchedError::Idle)?;
        let pid = self.procs[node].pid;
        self.free.push(node);
        self.dispatch();
        Ok(pid)
    }

    /// `FLUSH` (`finish_all_processes`): finishes the current process and
    /// then every ready one, in the order they are dispatched; blocked
    /// processes stay blocked (schedule only dispatches from the ready
    /// queues). Returns the pids finished, in order.
    pub fn flush(&mut self) -> Vec<i32> {
        let mut finished = Vec::new();
        while let Ok(pid) = self.finish() {
            finished.push(pid);
        }
        finished
    }

    /// The pid of the current process.
    pub fn current_pid(&self) -> Option<i32> {
        self.current.map(|node| self.procs[node].pid)
    }

    /// How many processes wait in the ready queue of `prio`.
    pub fn queue_len(&self, prio: i32) -> Result<usize, SchedError> {
        if !(1..=MAX_PRIO).contains(&prio) {
            return Err(SchedError::BadPriority(prio));
        }
        Ok(self.ready[Self::slot(prio)].mem_count)
    }

    /// How many processes are blocked.
    pub fn blocked_len(&self) -> usize {
        self.blocked.mem_count
    }

    /// How many processes exist: ready, blocked and current.
    pub fn process_count(&self) -> usize {
        self.ready.iter().map(|q| q.mem_count).sum::<usize>()
            + self.blocked.mem_count
            + usize::from(self.current.is_some())
    }

    /// Whether no process is current (then none is ready either).
    pub fn is_idle(&self) -> bool {
        self.current.is_none()
    }

    /// The invariant:
    /// - each ready queue and the blocked queue is a `None`-terminated chain
    ///   through `next` of exactly `mem_count` processes, from `first` to
    ///   `last` (both `None` when it is empty), with links in bounds;
    /// - every process is in exactly one place (a queue, or current), so no
    ///   queue is cyclic and none shares a process with another;
    /// - the processes of the ready queue of `p` have priority `p`; blocked
    ///   and current ones a priority in `1..=MAX_PRIO`; the current one links
    ///   to nothing;
    /// - pids are distinct and non-negative;
    /// - no process is ready while none is current (dispatch is immediate);
    /// - (port detail) free slots are in range, distinct and not reachable.
    pub fn rep_ok(&self) -> bool {
        let mut reached = Reached::new(self.procs.len());
        let mut pids = Vec::new();
        let queues = self.ready.iter().zip(1..).map(|(q, p)| (q, Some(p))).chain([(&self.blocked, None)]);
        for (queue, prio) in queues {
            let mut count = 0usize;
            let mut last = None;
            let mut link = queue.first;
            while let Some(node) = link {
                if !reached.first_visit(node) {
                    return false;
                }
                let p = &self.procs[node];
                let prio_ok = match prio {
                    Some(prio) => p.prio == prio,
                    None => (1..=MAX_PRIO).contains(&p.prio),
                };
                if !prio_ok {
                    return false;
                }
                pids.push(p.pid);
                count += 1;
                last = Some(node);
                link = p.next;
            }
            if count != queue.mem_count || last != queue.last {
                return false;
            }
        }
        match self.current {
            Some(node) => {
                if !reached.first_visit(node) {
                    return false;
                }
                let p = &self.procs[node];
                if !(1..=MAX_PRIO).contains(&p.prio) || p.next.is_some() {
                    return false;
                }
                pids.push(p.pid);
            }
            None => {
                if self.ready.iter().any(|q| q.first.is_some()) {
                    return false;
                }
            }
        }
        pids.sort_unstable();
        if pids.first().is_some_and(|&pid| pid < 0) || pids.windows(2).any(|w| w[0] == w[1]) {
            return false;
        }
        reached.free_slots_are_unreached(&self.free)
    }
}

impl Scheduler {
    /// The state as `(place, pid, priority)` triples: place 0 is the current
    /// process, places `1..=MAX_PRIO` the ready queues, `MAX_PRIO + 1` the
    /// blocked queue; each queue first to last.
    pub fn content(&self) -> Vec<(i32, i32, i32)> {
        let mut out = Vec::with_capacity(self.process_count());
        if let Some(node) = self.current {
            let p = &self.procs[node];
            out.push((0, p.pid, p.prio));
        }
        for (place, queue) in (1..).zip(self.ready.iter().chain([&self.blocked])) {
            out.extend(queue.nodes(&self.procs).map(|node| (place, self.procs[node].pid, self.procs[node].prio)));
        }
        out
    }

    /// The pids of the ready queue of `prio`, first to last (empty for a
    /// priority outside `1..=MAX_PRIO`).
    pub fn ready_pids(&self, prio: i32) -> Vec<i32> {
        if !(1..=MAX_PRIO).contains(&prio) {
            return Vec::new();
        }
        self.ready[Self::slot(prio)].nodes(&self.procs).map(|node| self.procs[node].pid).collect()
    }

    /// The pids of the blocked queue, first to last.
    pub fn blocked_pids(&self) -> Vec<i32> {
        self.blocked.nodes(&self.procs).map(|node| self.procs[node].pid).collect()
    }

    fn slot(prio: i32) -> usize {
        (prio - 1) as usize
    }

    /// Puts `node` at the end of the ready queue of its priority, then
    /// dispatches; returns its pid.
    fn make_ready(&mut self, node: usize) -> i32 {
        let prio = self.procs[node].prio;
        self.ready[Self::slot(prio)].push_back(&mut self.procs, node);
        self.dispatch();
        self.procs[node].pid
    }

    /// schedule's `schedule()`: if no process is current, the first of the
    /// highest non-empty ready queue becomes current.
    fn dispatch(&mut self) {
        if self.current.is_some() {
            return;
        }
        for prio in (1..=MAX_PRIO).rev() {
            if let Ok(node) = self.ready[Self::slot(prio)].remove_at(&mut self.procs, 0) {
                self.current = Some(node);
                return;
            }
        }
    }

    /// The smallest pid no process has.
    fn free_pid(&self) -> i32 {
        let mut used: Vec<i32> = self.content().into_iter().map(|(_, pid, _)| pid).collect();
        used.sort_unstable();
        let mut pid = 0;
        for u in used {
            if u == pid {
                pid += 1;
            } else if u > pid {
                break;
            }
        }
        pid
    }

    fn alloc(&mut self, process: Process) -> usize {
        arena::store(&mut self.procs, self.free.pop(), process)
    }
}

impl Queue {
    /// schedule's `append_ele`.
    fn push_back(&mut self, procs: &mut [Process], node: usize) {
        procs[node].next = None;
        match self.last {
            Some(last) => procs[last].next = Some(node),
            None => self.first = Some(node),
        }
        self.last = Some(node);
        self.mem_count += 1;
    }

    /// schedule's `find_nth` then `del_ele`, with a 0-based position.
    fn remove_at(&mut self, procs: &mut [Process], position: usize) -> Result<usize, SchedError> {
        if position >= self.mem_count {
            return Err(SchedError::NoSuchProcess { position, len: self.mem_count });
        }
        let mut previous = None;
        let mut node = self.first.expect("scheduler: a non-empty queue has a first process");
        for _ in 0..position {
            previous = Some(node);
            node = procs[node].next.expect("scheduler: queue shorter than its mem_count");
        }
        let next = procs[node].next.take();
        match previous {
            Some(p) => procs[p].next = next,
            None => self.first = next,
        }
        if self.last == Some(node) {
            self.last = previous;
        }
        self.mem_count -= 1;
        Ok(node)
    }

    /// The queue's processes, first to last.
    fn nodes<'a>(&self, procs: &'a [Process]) -> impl Iterator<Item = usize> + 'a {
        std::iter::successors(self.first, |&n| procs[n].next).take(self.mem_count)
    }
}

// Two schedulers are equal when their current processes, ready queues and
// blocked queues hold the same pids with the same priorities in the same
// order ([`content`](Scheduler::content)); the arena layout plays no part.
compare_by_content!([] Scheduler, content);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{assert_rejects, assert_rejects_miscount, beapi_count, named, XorShift};
    use smallscope::heap::canonical_text;
    use smallscope::Builders;
    use std::collections::VecDeque;

    /// The oracle: queues of `(pid, prio)` as `VecDeque`s.
    #[derive(Default, Debug)]
    struct Model {
        ready: [VecDeque<(i32, i32)>; 3],
        blocked: VecDeque<(i32, i32)>,
        current: Option<(i32, i32)>,
    }

    impl Model {
        fn all(&self) -> impl Iterator<Item = &(i32, i32)> {
            self.current.iter().chain(self.ready.iter().flatten()).chain(&self.blocked)
        }

        fn dispatch(&mut self) {
            if self.current.is_none() {
                self.current = self.ready.iter_mut().rev().find_map(|q| q.pop_front());
            }
        }

        fn new_job(&mut self, prio: i32) -> Option<i32> {
            if !(1..=3).contains(&prio) {
                return None;
            }
            let pid = (0..).find(|pid| self.all().all(|&(p, _)| p != *pid)).unwrap();
            self.ready[prio as usize - 1].push_back((pid, prio));
            self.dispatch();
            Some(pid)
        }

        fn upgrade_prio(&mut self, prio: i32, position: usize) -> Option<i32> {
            if !(1..3).contains(&prio) {
                return None;
            }
            let (pid, _) = self.ready[prio as usize - 1].remove(position)?;
            self.ready[prio as usize].push_back((pid, prio + 1));
            Some(pid)
        }

        fn block(&mut self) -> Option<i32> {
            let p = self.current.take()?;
            self.blocked.push_back(p);
            self.dispatch();
            Some(p.0)
        }

        fn unblock(&mut self, position: usize) -> Option<i32> {
            let p = self.blocked.remove(position)?;
            self.ready[p.1 as usize - 1].push_back(p);
            self.dispatch();
            Some(p.0)
        }

        fn quantum_expire(&mut self) -> Option<i32> {
            let p = self.current.take()?;
            self.ready[p.1 as usize - 1].push_back(p);
            self.dispatch();
            Some(p.0)
        }

        fn finish(&mut self) -> Option<i32> {
            let p = self.current.take()?;
            self.dispatch();
            Some(p.0)
        }

        fn content(&self) -> Vec<(i32, i32, i32)> {
            let mut out: Vec<_> = self.current.iter().map(|&(pid, prio)| (0, pid, prio)).collect();
            for (place, q) in (1..).zip(self.ready.iter().chain([&self.blocked])) {
                out.extend(q.iter().map(|&(pid, prio)| (place, pid, prio)));
            }
            out
        }
    }

    /// Checks every observer against the model, and that none changes the heap.
    fn check_observers(s: &Scheduler, m: &Model) {
        let before = canonical_text(s);
        assert_eq!(s.current_pid(), m.current.map(|p| p.0));
        for prio in 0..=4 {
            let expected = (1..=3).contains(&prio).then(|| m.ready[prio as usize - 1].len());
            assert_eq!(s.queue_len(prio).ok(), expected);
        }
        assert_eq!(s.blocked_len(), m.blocked.len());
        assert_eq!(s.process_count(), m.all().count());
        assert_eq!(s.is_idle(), m.current.is_none());
        assert_eq!(canonical_text(s), before, "an observer changed the heap");
    }

    /// One random call on both, with the same answer.
    fn step(s: &mut Scheduler, m: &mut Model, rng: &mut XorShift) {
        let prio = rng.below(5) as i32;
        let position = rng.below(4) as usize;
        match rng.below(20) {
            0..=5 => assert_eq!(s.new_job(prio).ok(), m.new_job(prio)),
            6..=7 => assert_eq!(s.upgrade_prio(prio, position).ok(), m.upgrade_prio(prio, position)),
            8..=10 => assert_eq!(s.block().ok(), m.block()),
            11..=13 => assert_eq!(s.unblock(position).ok(), m.unblock(position)),
            14..=16 => assert_eq!(s.quantum_expire().ok(), m.quantum_expire()),
            17..=18 => assert_eq!(s.finish().ok(), m.finish()),
            _ => {
                if rng.below(4) == 0 {
                    let expected: Vec<i32> = std::iter::from_fn(|| m.finish()).collect();
                    assert_eq!(s.flush(), expected);
                    assert!(m.ready.iter().all(VecDeque::is_empty));
                }
            }
        }
    }

    #[test]
    fn differential_against_a_model() {
        let mut rng = XorShift(0x5EED_0F5C_4ED0_1E55);
        for _ in 0..3000 {
            let mut s = Scheduler::new();
            let mut m = Model::default();
            for _ in 0..rng.below(40) {
                step(&mut s, &mut m, &mut rng);
                assert!(s.rep_ok(), "{s:?}");
                assert_eq!(s.content(), m.content());
                check_observers(&s, &m);
                // Finished slots are recycled: the arena holds at most the peak number of processes.
                assert_eq!(s.procs.len(), s.process_count() + s.free.len());
            }
        }
    }

    #[test]
    fn dispatches_the_highest_priority_first_and_never_preempts() {
        let mut s = Scheduler::new();
        assert_eq!(s.new_job(1), Ok(0));
        assert_eq!(s.new_job(2), Ok(1));
        assert_eq!(s.new_job(2), Ok(2));
        // Pid 0 runs although priority 2 processes came later.
        assert_eq!(s.current_pid(), Some(0));
        assert_eq!(s.quantum_expire(), Ok(0));
        assert_eq!(s.current_pid(), Some(1));
        assert_eq!(s.ready_pids(1), [0]);
        assert_eq!(s.ready_pids(2), [2]);
        assert_eq!(s.block(), Ok(1));
        assert_eq!(s.current_pid(), Some(2));
        assert_eq!(s.upgrade_prio(1, 0), Ok(0));
        assert_eq!(s.ready_pids(1), Vec::<i32>::new());
        assert_eq!(s.ready_pids(2), [0]);
        assert_eq!(s.finish(), Ok(2));
        assert_eq!(s.current_pid(), Some(0));
        assert_eq!(s.unblock(0), Ok(1));
        assert_eq!(s.ready_pids(2), [1]);
        // The smallest free pid is reused.
        assert_eq!(s.new_job(1), Ok(2));
        assert_eq!(s.block(), Ok(0));
        assert_eq!(s.flush(), [1, 2]);
        assert_eq!(s.blocked_pids(), [0]);
        assert!(s.is_idle());
        assert_eq!(s.new_job(3), Ok(1));
        assert_eq!(s.current_pid(), Some(1));
        assert!(s.rep_ok());
    }

    #[test]
    fn misuse_is_an_error() {
        let mut s = Scheduler::new();
        assert_eq!(s.new_job(0), Err(SchedError::BadPriority(0)));
        assert_eq!(s.new_job(4), Err(SchedError::BadPriority(4)));
        assert_eq!(s.block(), Err(SchedError::Idle));
        assert_eq!(s.finish(), Err(SchedError::Idle));
        assert_eq!(s.quantum_expire(), Err(SchedError::Idle));
        assert_eq!(s.unblock(0), Err(SchedError::NoSuchProcess { position: 0, len: 0 }));
        s.new_job(1).unwrap();
        s.new_job(1).unwrap();
        assert_eq!(s.upgrade_prio(3, 0), Err(SchedError::BadPriority(3)));
        assert_eq!(s.upgrade_prio(1, 1), Err(SchedError::NoSuchProcess { position: 1, len: 1 }));
        assert_eq!(s.queue_len(0), Err(SchedError::BadPriority(0)));
        assert_eq!(s.flush(), [0, 1]);
        assert_eq!(s.flush(), Vec::<i32>::new());
        assert!(s.rep_ok());
    }

    #[test]
    fn equality_ignores_the_arena_layout() {
        // Two routes to: current 1 (prio 1), nothing else.
        let mut a = Scheduler::new();
        a.new_job(1).unwrap();
        a.new_job(1).unwrap();
        a.finish().unwrap();
        let mut b = Scheduler::new();
        for _ in 0..3 {
            b.new_job(1).unwrap();
        }
        b.finish().unwrap();
        b.quantum_expire().unwrap();
        b.finish().unwrap();
        assert_ne!(a.procs.len(), b.procs.len());
        assert_eq!(a, b);
        assert_eq!(canonical_text(&a), canonical_text(&b));
        assert_eq!(
            canonical_text(&a),
            "Scheduler#0{ready: [Queue{first: null, last: null, mem_count: 0}, \
             Queue{first: null, last: null, mem_count: 0}, Queue{first: null, last: null, mem_count: 0}], \
             blocked: Queue{first: null, last: null, mem_count: 0}, current: Process#1{pid: 1, prio: 1, next: null}}"
        );
        let hash = |s: &Scheduler| {
            use std::hash::{Hash, Hasher};
            let mut h = std::collections::hash_map::DefaultHasher::new();
            s.hash(&mut h);
            h.finish()
        };
        assert_eq!(hash(&a), hash(&b));
        let mut c = a.clone();
        c.new_job(1).unwrap();
        assert!(a < c);
        assert_eq!(c.clone(), c);
    }

    /// Current 1 (prio 1); ready 2: [2, 3]; blocked [0 (prio 2)].
    fn sample() -> Scheduler {
        let mut s = Scheduler::new();
        s.new_job(2).unwrap();
        s.block().unwrap();
        for prio in [1, 2, 2] {
            s.new_job(prio).unwrap();
        }
        assert!(s.rep_ok(), "{s:?}");
        assert_eq!(s.content(), [(0, 1, 1), (2, 2, 2), (2, 3, 2), (4, 0, 2)]);
        s
    }

    #[test]
    fn rep_ok_rejects_wrong_counts() {
        assert_rejects_miscount(&sample(), |s| &mut s.ready[1].mem_count);
        assert_rejects_miscount(&sample(), |s| &mut s.blocked.mem_count);
    }

    #[test]
    fn rep_ok_rejects_wrong_last() {
        assert_rejects(sample(), |s| s.ready[1].last = s.ready[1].first);
        assert_rejects(sample(), |s| s.blocked.last = None);
    }

    #[test]
    fn rep_ok_rejects_cycles() {
        assert_rejects(sample(), |s| {
            let last = s.ready[1].last.unwrap();
            s.procs[last].next = s.ready[1].first;
        });
    }

    #[test]
    fn rep_ok_rejects_shared_processes() {
        assert_rejects(sample(), |s| s.current = s.blocked.first);
        assert_rejects(sample(), |s| {
            let first = s.ready[1].first;
            s.ready[0] = Queue { first, last: first, mem_count: 1 };
            let f = first.unwrap();
            s.procs[f].prio = 1;
        });
    }

    #[test]
    fn rep_ok_rejects_wrong_priorities() {
        assert_rejects(sample(), |s| {
            let first = s.ready[1].first.unwrap();
            s.procs[first].prio = 3;
        });
        assert_rejects(sample(), |s| {
            let blocked = s.blocked.first.unwrap();
            s.procs[blocked].prio = 0;
        });
        assert_rejects(sample(), |s| {
            let current = s.current.unwrap();
            s.procs[current].prio = 4;
        });
    }

    #[test]
    fn rep_ok_rejects_duplicate_pids() {
        assert_rejects(sample(), |s| {
            let first = s.ready[1].first.unwrap();
            s.procs[first].pid = s.current_pid().unwrap();
        });
    }

    #[test]
    fn rep_ok_rejects_ready_while_idle() {
        assert_rejects(sample(), |s| s.current = None);
    }

    #[test]
    fn rep_ok_rejects_linked_current() {
        assert_rejects(sample(), |s| {
            let current = s.current.unwrap();
            s.procs[current].next = s.blocked.first;
        });
    }

    #[test]
    fn rep_ok_rejects_dangling_links_and_live_free_slots() {
        assert_rejects(sample(), |s| s.current = Some(99));
        assert_rejects(sample(), |s| s.blocked.first = Some(99));
        assert_rejects(sample(), |s| s.free.push(s.current.unwrap()));
    }

    const BUILDERS: [&str; 5] = ["new", "new_job", "upgrade_prio", "block", "finish"];

    #[test]
    fn structure_counts_builders_match_the_whole_api() {
        for (scope, expected) in [(3, 775), (4, 10_573)] {
            assert_eq!(beapi_count::<Scheduler>(scope, Builders::All), expected, "scope {scope}");
            assert_eq!(beapi_count::<Scheduler>(scope, named(&BUILDERS)), expected, "scope {scope}");
        }
    }

    #[test]
    fn structure_counts_each_builder_is_needed() {
        let all = beapi_count::<Scheduler>(3, named(&BUILDERS));
        // `new`, the only constructor, stays.
        for left_out in &BUILDERS[1..] {
            let fewer: Vec<&str> = BUILDERS.iter().copied().filter(|b| b != left_out).collect();
            assert!(beapi_count::<Scheduler>(3, named(&fewer)) < all, "{left_out} is not needed");
        }
    }
}
