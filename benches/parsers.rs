//! Criterion benches: each parser on typical payloads, and whole-file linting.
//! Run with `cargo bench --bench parsers`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use silp_lint::lint::lint_text;
use silp_lint::settings::Settings;
use silp_lint::source::FileKind;
use silp_lint::syntax::{code, json, slip};
use std::hint::black_box;

const CODE: &str = "if budget<=500 and rating>=4.0 and loc(hotel,downtown): book(hotel,city=Shanghai,checkin=t+3,nights=2) else: suggest(hostels)";
const SLIP: &str = "SLIP v1 planner executor RequestTask implement_auth_module thread42";
const IR: &str = r#"{"silp":"v1","intent":"!START","entities":[{"id":"act","value":"hike","action":"!START"}],"constraints":[{"type":"!rain","value":"true","time":"t+1"}],"alternatives":[{"action":"!START","target":"cards","location":"indoor"}],"meta":{"req_id":"a1b2c3d4","out":"code"}}"#;

fn parsers(c: &mut Criterion) {
    let mut group = c.benchmark_group("parse");
    group.throughput(Throughput::Bytes(CODE.len() as u64));
    group.bench_function("code_payload", |b| {
        b.iter(|| code::parse_payload(black_box(CODE), 0))
    });
    group.throughput(Throughput::Bytes(SLIP.len() as u64));
    group.bench_function("slip_line", |b| {
        b.iter(|| slip::parse_message(black_box(SLIP), 0))
    });
    group.throughput(Throughput::Bytes(IR.len() as u64));
    group.bench_function("json_document", |b| {
        b.iter(|| json::parse_json(black_box(IR), 0))
    });
    group.finish();
}

fn lint_files(c: &mut Criterion) {
    let settings = Settings::default();
    let cases = [
        (
            "silp_200_lines",
            FileKind::Silp,
            format!("{CODE}\n").repeat(200),
        ),
        (
            "slip_200_lines",
            FileKind::Slip,
            format!("{SLIP}\n").repeat(200),
        ),
        (
            "jsonl_200_lines",
            FileKind::SilpJsonl,
            format!("{IR}\n").repeat(200),
        ),
        (
            "json_array_200",
            FileKind::SilpJson,
            format!("[{}]", vec![IR; 200].join(",\n")),
        ),
    ];
    let mut group = c.benchmark_group("lint_text");
    for (name, kind, text) in &cases {
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_function(*name, |b| {
            b.iter(|| lint_text(black_box(text), *kind, &settings))
        });
    }
    group.finish();
}

criterion_group!(benches, parsers, lint_files);
criterion_main!(benches);
