#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| silp_lint_fuzz::json_target(data));
