//! Times as UTC calendar text: the stamp in a run folder's name and the
//! RFC 3339 times in metadata, reports and lock files.

use std::time::{SystemTime, UNIX_EPOCH};

/// `t` as a UTC calendar time. Times before 1970 read as 1970-01-01 00:00:00,
/// times past the year 9999 as 9999-12-31 23:59:59.
fn utc(t: SystemTime) -> time::OffsetDateTime {
    let secs = t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    i64::try_from(secs)
        .ok()
        .and_then(|s| time::OffsetDateTime::from_unix_timestamp(s).ok())
        .unwrap_or(time::PrimitiveDateTime::MAX.assume_utc())
}

/// `YYYYMMDD-HHMMSS` in UTC.
pub fn utc_stamp(t: SystemTime) -> String {
    utc_with(t, ["", "", "-", "", ""], "")
}

/// An RFC 3339 UTC time, for metadata.
pub fn utc_rfc3339(t: SystemTime) -> String {
    utc_with(t, ["-", "-", "T", ":", ":"], "Z")
}

/// Year, month, day, hour, minute and second with `separators` between
/// them and `end` after.
fn utc_with(t: SystemTime, separators: [&str; 5], end: &str) -> String {
    let u = utc(t);
    let [a, b, c, d, e] = separators;
    format!(
        "{:04}{a}{:02}{b}{:02}{c}{:02}{d}{:02}{e}{:02}{end}",
        u.year(),
        u8::from(u.month()),
        u.day(),
        u.hour(),
        u.minute(),
        u.second()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn timestamps_are_utc_calendar_dates() {
        assert_eq!(utc_stamp(UNIX_EPOCH), "19700101-000000");
        // 2026-11-22 02:54:15 UTC.
        let t = UNIX_EPOCH + Duration::from_secs(1_795_316_055);
        assert_eq!(utc_stamp(t), "20261122-025415");
        assert_eq!(utc_rfc3339(t), "2026-11-22T02:54:15Z");
        // A leap day.
        let t = UNIX_EPOCH + Duration::from_secs(951_782_400);
        assert_eq!(utc_stamp(t), "20000229-000000");
        // The last second of a year, and of a century that is no leap year.
        let t = UNIX_EPOCH + Duration::from_secs(4_102_444_799);
        assert_eq!(utc_rfc3339(t), "2099-12-31T23:59:59Z");
        let t = UNIX_EPOCH + Duration::from_secs(4_107_542_400);
        assert_eq!(utc_stamp(t), "21000301-000000");
        // Before the epoch: the epoch.
        assert_eq!(
            utc_stamp(UNIX_EPOCH - Duration::from_secs(1)),
            "19700101-000000"
        );
    }
}
