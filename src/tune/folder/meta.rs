//! `meta.json`: what a run folder was made by and from, written by `tune`
//! and read back by the charts, through this one type.

use serde::{Deserialize, Serialize};

use super::{files, RunFolder};

/// The contents of `meta.json`. Every field has a default, so folders from
/// older versions (or edited by hand) still read.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RunMeta {
    /// The job's name (the run folder's prefix).
    pub name: Option<String>,
    /// The version of tune2048 that started the run.
    pub version: String,
    /// The config file the run was started from.
    pub config: String,
    /// The base weights file the config named.
    pub base_weights: String,
    pub seed: u64,
    /// Worker threads of the command that started it, all processes together.
    pub threads: usize,
    /// Processes that played its games (more than 1 on an MPI job; 0 in
    /// folders written before this field).
    pub processes: usize,
    /// Cores of the machine of the process that owns the run folder.
    pub cores: usize,
    /// Start time, RFC 3339 UTC.
    pub started: String,
    /// Tuned term names, in the order of the journal's `x` vectors.
    pub params: Vec<String>,
}

impl RunMeta {
    pub fn write(&self, folder: &RunFolder) -> std::io::Result<()> {
        let text = serde_json::to_string_pretty(self).map_err(std::io::Error::other)?;
        folder.write_atomic(files::META, text.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_reads_partial_files() {
        let meta = RunMeta {
            name: Some("smoke".into()),
            version: "0.1.0".into(),
            params: vec!["empty".into(), "merges".into()],
            seed: 7,
            ..RunMeta::default()
        };
        let text = serde_json::to_string(&meta).unwrap();
        assert_eq!(serde_json::from_str::<RunMeta>(&text).unwrap(), meta);
        let partial: RunMeta =
            serde_json::from_str(r#"{"name": "n", "params": ["empty"]}"#).unwrap();
        assert_eq!(partial.name.as_deref(), Some("n"));
        assert_eq!(partial.params, vec!["empty"]);
    }
}
