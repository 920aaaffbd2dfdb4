//! `silp-lsp`: the silp-lint language server on standard input and output.

/// mimalloc, as in `silp-lint`: publishing diagnostics allocates many small values.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    silp_lint::memory::disable_transparent_huge_pages();
    match silp_lint::lsp::serve_stdio() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("silp-lsp: {error}");
            std::process::ExitCode::FAILURE
        }
    }
}
