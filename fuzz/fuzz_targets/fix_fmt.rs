#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| silp_lint_fuzz::fix_fmt_target(data));
