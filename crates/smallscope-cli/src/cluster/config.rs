//! A cluster as the command line gives it: a hostfile, this process's
//! index in it, and the workers of each process.

use std::path::Path;

use smallscope_args::cluster::ClusterArgs;

use crate::BadInput;

/// This process's place in a cluster.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cluster {
    /// `host:port` of each process, process 0 first.
    pub addresses: Vec<String>,
    /// This process's index in `addresses`.
    pub process: usize,
    /// Workers (threads) of each process.
    pub workers: usize,
}

impl Cluster {
    /// The cluster the options name; `None` without `--hostfile`.
    pub fn from_args(args: &ClusterArgs) -> Result<Option<Cluster>, BadInput> {
        let Some(path) = &args.hostfile else { return Ok(None) };
        let addresses = read_hostfile(path)?;
        let process = args.process.ok_or_else(|| {
            BadInput(format!(
                "--hostfile {} needs --process I: this process's line in it, from 0 to {}",
                path.display(),
                addresses.len() - 1
            ))
        })?;
        if process >= addresses.len() {
            return Err(BadInput(format!(
                "--process {process}: {} names {} process{}, numbered from 0",
                path.display(),
                addresses.len(),
                if addresses.len() == 1 { "" } else { "es" }
            )));
        }
        Ok(Some(Cluster { addresses, process, workers: args.workers.unwrap_or(1) as usize }))
    }

    /// The process count.
    pub fn processes(&self) -> usize {
        self.addresses.len()
    }
}

/// One `host:port` per line; blank lines and `#` comments are passed over.
fn read_hostfile(path: &Path) -> Result<Vec<String>, BadInput> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| BadInput(format!("--hostfile {}: cannot read it: {e}", path.display())))?;
    let mut addresses = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or_default().trim();
        if line.is_empty() {
            continue;
        }
        let port = line.rsplit_once(':').map(|(host, port)| (host, port.parse::<u16>()));
        if !matches!(port, Some((host, Ok(_))) if !host.is_empty()) {
            return Err(BadInput(format!(
                "--hostfile {}, line {}: `{line}` is not `host:port` (e.g. 127.0.0.1:2101)",
                path.display(),
                number + 1
            )));
        }
        addresses.push(line.to_owned());
    }
    if addresses.is_empty() {
        return Err(BadInput(format!("--hostfile {}: no `host:port` line in it", path.display())));
    }
    Ok(addresses)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cluster(hostfile: &str, process: Option<usize>) -> Result<Option<Cluster>, BadInput> {
        let file = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(file.path(), hostfile).unwrap();
        Cluster::from_args(&ClusterArgs { hostfile: Some(file.path().to_owned()), process, workers: None })
    }

    #[test]
    fn a_hostfile_names_the_processes_in_order() {
        let read = cluster("# two processes\n127.0.0.1:2101\n\n127.0.0.1:2102 # the second\n", Some(1)).unwrap();
        let read = read.unwrap();
        assert_eq!(read.addresses, ["127.0.0.1:2101", "127.0.0.1:2102"]);
        assert_eq!((read.process, read.processes(), read.workers), (1, 2, 1));
    }

    #[test]
    fn bad_hostfiles_and_indices_are_told() {
        let told = |result: Result<Option<Cluster>, BadInput>| result.unwrap_err().0;
        assert!(told(cluster("127.0.0.1:2101\n", Some(1))).contains("names 1 process, numbered from 0"));
        assert!(told(cluster("127.0.0.1:2101\n", None)).contains("needs --process I"));
        assert!(told(cluster("localhost\n", Some(0))).contains("line 1: `localhost` is not `host:port`"));
        assert!(told(cluster("host:99999\n", Some(0))).contains("is not `host:port`"));
        assert!(told(cluster("# nothing\n", Some(0))).contains("no `host:port` line"));
        assert!(Cluster::from_args(&ClusterArgs::default()).unwrap().is_none());
    }
}
