//! `silp-lsp`: the silp-lint language server on standard input and output.

/// mimalloc (see `silp_lint::memory`): linting allocates many small nodes, where it
/// is markedly faster than the system allocator.
#[global_allocator]
static GLOBAL: silp_lint::memory::Allocator = silp_lint::memory::Allocator;

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
