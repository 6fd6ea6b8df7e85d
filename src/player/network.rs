//! A learned network as a player holds it: loaded once and shared by every
//! thread, written to batches and journals as its file's path (a network is
//! up to 256 MiB; its path names it). The network itself, its files and
//! their errors live in [`crate::network`].

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::network::{Network, NetworkError};

/// A network and the file it was read from.
#[derive(Clone)]
pub struct NetworkFile {
    path: PathBuf,
    net: Arc<Network>,
    /// The hash the file ends with: two files with the same hash hold the
    /// same network.
    hash: u64,
}

impl NetworkFile {
    /// Reads the network at `path`.
    pub fn load(path: &Path) -> Result<NetworkFile, NetworkError> {
        let net = Arc::new(Network::load(path)?);
        Ok(NetworkFile {
            path: path.to_path_buf(),
            net,
            hash: Network::file_hash(path).map_err(|source| NetworkError::Read {
                path: path.to_path_buf(),
                source,
            })?,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The hash the file ends with (checked when it was read).
    pub fn hash(&self) -> u64 {
        self.hash
    }

    pub fn network(&self) -> &Network {
        &self.net
    }
}

/// Two players with the same network file are the same player.
impl PartialEq for NetworkFile {
    fn eq(&self, other: &NetworkFile) -> bool {
        self.path == other.path
    }
}

impl std::fmt::Debug for NetworkFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "NetworkFile({})", self.path.display())
    }
}

impl Serialize for NetworkFile {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.path.serialize(s)
    }
}

impl<'de> Deserialize<'de> for NetworkFile {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<NetworkFile, D::Error> {
        let path = PathBuf::deserialize(d)?;
        NetworkFile::load(&path).map_err(serde::de::Error::custom)
    }
}
