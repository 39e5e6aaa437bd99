use std::io::BufReader;

pub fn run(input: &str) -> Result<(), String> {
    let stdout = std::io::stdout().lock();
    if input == "-" {
        crate::query::run(std::io::stdin().lock(), stdout).map_err(|e| format!("query: {e}"))
    } else {
        let file = std::fs::File::open(input).map_err(|e| format!("{input}: cannot read: {e}"))?;
        crate::query::run(BufReader::new(file), stdout).map_err(|e| format!("{input}: {e}"))
    }
}
