use super::*;

fn sh(script: &str, stderr: Stderr) -> Child {
    let command = ["sh", "-c", script].map(String::from);
    Child::spawn(&command, stderr).unwrap()
}

const LONG: Duration = Duration::from_secs(30);

fn soon() -> Deadline {
    Deadline::after(LONG)
}

#[test]
fn lines_come_back_and_the_end_and_the_stderr_are_reported() {
    let script = "read x; echo \"got $x\"; printf 'a\\r\\nb'; echo oops >&2; exit 3";
    let mut c = sh(script, Stderr::Tail);
    c.send("hi\n", soon()).unwrap();
    assert_eq!(c.receive(soon()).unwrap(), "got hi");
    assert_eq!(c.receive(soon()).unwrap(), "a");
    // A last line without its newline still counts.
    assert_eq!(c.receive(soon()).unwrap(), "b");
    let err = c.receive(soon()).unwrap_err();
    assert_eq!(err, ChildError::Ended("exit status 3".into()));
    assert_eq!(err.to_string(), "the program ended (exit status 3)");
    assert_eq!(
        err.unanswered(),
        "the program ended without answering (exit status 3)"
    );
    // Asked again, it says the same.
    assert_eq!(c.receive(soon()).unwrap_err(), err);
    assert_eq!(c.stderr_tail(LONG), vec!["oops".to_string()]);
    // Writing to a program that is gone is no error: the reads say it.
    c.send("more\n", soon()).unwrap();
}

#[test]
fn a_silent_child_times_out_and_is_killed_with_its_children() {
    let mut c = sh("sleep 100 & echo started; wait", Stderr::Tail);
    assert_eq!(c.receive(soon()).unwrap(), "started");
    let start = Instant::now();
    let limit = Duration::from_millis(100);
    assert_eq!(
        c.receive(Deadline::after(limit)),
        Err(ChildError::TimedOut(limit))
    );
    assert!(start.elapsed() >= limit);
    c.send("quit\n", soon()).unwrap();
    c.stop(Duration::ZERO);
    // The background `sleep` held stdout and stderr too; once the group is
    // gone they end at once instead of after 100 s.
    assert!(matches!(c.receive(soon()), Err(ChildError::Ended(_))));
    c.stderr_tail(LONG);
    assert!(c.tail.as_ref().unwrap().lock().unwrap().closed);
    assert!(live().iter().all(|&g| g != c.group));
    assert!(start.elapsed() < LONG);
    // Stopped twice, it is left alone.
    c.stop(Duration::ZERO);
}

#[test]
fn a_child_that_stops_reading_cannot_hang_a_write() {
    let mut c = sh("echo reading no more; sleep 100", Stderr::Inherit);
    assert_eq!(c.receive(soon()).unwrap(), "reading no more");
    let start = Instant::now();
    let limit = Duration::from_millis(200);
    // A megabyte to a program that reads nothing: the pipe fills, and the
    // write that finds it full gives up at its deadline.
    let line = format!("{}\n", "x".repeat(99));
    let failed = (0..10_000).find_map(|_| c.send(&line, Deadline::after(limit)).err());
    let err = failed.expect("a write to a full pipe fails");
    assert_eq!(err, ChildError::WriteTimedOut(limit));
    assert_eq!(
        err.to_string(),
        "the program did not read its input within the limit of 0.2 s"
    );
    // Later writes fail at once, with the same error.
    assert_eq!(c.send("more\n", Deadline::after(LONG)), Err(err));
    assert!(start.elapsed() >= limit);
    assert!(start.elapsed() < LONG);
    // Reads still time out as usual.
    let short = Duration::from_millis(50);
    assert_eq!(
        c.receive(Deadline::after(short)),
        Err(ChildError::TimedOut(short))
    );
}

#[test]
fn overlong_and_binary_lines_are_refused() {
    let mut c = sh(
        &format!("head -c {} /dev/zero | tr '\\0' x", 2 * MAX_LINE),
        Stderr::Inherit,
    );
    assert_eq!(c.receive(soon()), Err(ChildError::TooLong));
    let mut c = sh("printf '\\377\\n'", Stderr::Inherit);
    assert_eq!(c.receive(soon()), Err(ChildError::NotUtf8));
}

#[test]
fn time_limits_are_positive_and_bounded() {
    assert_eq!(time_limit(1.5), Some(Duration::from_millis(1500)));
    for bad in [0.0, -1.0, f64::NAN, f64::INFINITY, 2e9] {
        assert_eq!(time_limit(bad), None, "{bad}");
    }
}
