//! `call_watch` lets a watchdog tell a call into user code that never
//! returns: while one runs, the count of calls started stays put.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use smallscope::api::{call_watch, run_captured, set_current_operation};

#[test]
fn a_call_that_does_not_return_is_visible() {
    set_current_operation("spin");
    let release = Arc::new(AtomicBool::new(false));
    let entered = Arc::new(AtomicBool::new(false));
    let (r, e) = (release.clone(), entered.clone());
    let worker = std::thread::spawn(move || {
        run_captured(|| {
            e.store(true, Ordering::SeqCst);
            while !r.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(1));
            }
        })
        .unwrap();
    });
    while !entered.load(Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(1));
    }
    let (first, in_call, operation) = call_watch();
    std::thread::sleep(Duration::from_millis(50));
    let (second, still, _) = call_watch();
    assert!(in_call && still, "the call is running");
    assert_eq!(first, second, "no new call started while it runs");
    assert_eq!(operation, "spin");
    release.store(true, Ordering::SeqCst);
    worker.join().unwrap();
    assert!(!call_watch().1, "no call is running once it returned");
    run_captured(|| ()).unwrap();
    assert!(call_watch().0 > second, "a later call counts");
}
