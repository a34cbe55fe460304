//! `smallscope bench`: benchmark tables, printed in one run.
pub fn run(_args: &BenchArgs) -> anyhow::Result<()> {
    anyhow::bail!("not yet")
}
#[derive(clap::Args)]
pub struct BenchArgs {}
