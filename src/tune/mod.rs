//! CMA-ES tuning jobs: configuration, run folders, journal and resume.

pub mod config;
