//! `fivefoot compare`: one level under several variants, the same seeds under each, as a
//! table, one JSON object or CSV; the same bytes for the same inputs; bad input exit 2.

use super::*;

const DUEL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/levels/mage-duel.ron");

#[test]
fn compare_reports_each_variant_with_the_same_seeds_as_sim() {
    let (code, out, err) = fivefoot(&["compare", DUEL, "--battles", "6", "--seed", "5", "--json", "--threads", "1"]);
    assert_eq!(code, 0, "{err}");
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!((report["battles"].as_u64(), report["seed"].as_u64()), (Some(6), Some(5)));
    let variants = report["variants"].as_object().unwrap();
    let names: Vec<&str> = variants.keys().map(String::as_str).collect();
    assert_eq!(names.len(), 5, "--rules all by default: {names:?}");
    for (name, v) in variants {
        let (blue, red) = (&v["sides"]["blue"], &v["sides"]["red"]);
        let wins = blue["wins"].as_u64().unwrap() + red["wins"].as_u64().unwrap() + v["draws"].as_u64().unwrap();
        assert_eq!(wins, 6, "{name}: every battle is won or drawn");
        let rate = blue["win_rate"].as_f64().unwrap();
        assert!(blue["ci95"][0].as_f64().unwrap() <= rate && rate <= blue["ci95"][1].as_f64().unwrap());
        for key in ["rounds", "seconds"] {
            let s = &v[key];
            assert!(s["median"].as_f64().unwrap() <= s["p90"].as_f64().unwrap(), "{name}: {key}");
        }
        assert!(v["hits"].as_u64().unwrap() > 0 && v["damage_per_round"]["red"].as_f64().unwrap() > 0.0);
        // Battle i uses seed S + i under every variant: the same battles `sim` plays.
        let (code, sim, _) = fivefoot(&["sim", DUEL, "--rules", name, "--battles", "6", "--seed", "5", "--json"]);
        assert_eq!(code, 0);
        let sim: Value = serde_json::from_str(&sim).unwrap();
        assert_eq!(sim["wins"]["blue"], blue["wins"], "{name}");
        assert_eq!(sim["hits"], v["hits"], "{name}");
    }
    // A round of osr-segments is a minute; of d20-classic six seconds.
    let secs =
        |v: &str| variants[v]["seconds"]["mean"].as_f64().unwrap() / variants[v]["rounds"]["mean"].as_f64().unwrap();
    assert!((secs("osr-segments") - 60.0).abs() < 0.1 && (secs("d20-classic") - 6.0).abs() < 0.1);
    let (_, again, _) = fivefoot(&["compare", DUEL, "--battles", "6", "--seed", "5", "--json", "--threads", "2"]);
    assert_eq!(out, again, "the same inputs give the same bytes on any number of threads");
}

/// A house rule rides on its variant (`d20-classic+no-flanking`); the table has a column per
/// spec in the order given, and the CSV a row.
#[test]
fn compare_takes_house_rules_and_writes_a_table_and_csv() {
    let dir = std::env::temp_dir().join(format!("fivefoot-compare-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("compare.csv");
    let skirmish = concat!(env!("CARGO_MANIFEST_DIR"), "/levels/skirmish.ron");
    let specs = "d20-classic+no-flanking,d20-classic";
    let (code, out, err) =
        fivefoot(&["compare", skirmish, "--rules", specs, "--battles", "4", "--csv", csv.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let head = out.lines().nth(1).unwrap();
    let (a, b) = (head.find("d20-classic+no-flanking").unwrap(), head.rfind("d20-classic").unwrap());
    assert!(a < b, "columns in the order asked: {head}");
    assert!(out.contains("house rules") && out.contains("no-flanking") && out.contains("AoO per battle"), "{out}");
    let text = std::fs::read_to_string(&csv).unwrap();
    let rows: Vec<&str> = text.lines().collect();
    assert_eq!(rows.len(), 3, "{text}");
    assert!(rows[0].starts_with("variant,house_rules,battles,blue_wins,blue_win_rate"));
    assert!(rows[1].starts_with("d20-classic+no-flanking,no-flanking,4,") && rows[2].starts_with("d20-classic,,4,"));
    assert!(rows.iter().all(|r| r.split(',').count() == rows[0].split(',').count()));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn compare_refuses_bad_input_with_exit_2() {
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["compare", DUEL, "--rules", "d20"], "unknown rule variant \"d20\""),
        (vec!["compare", DUEL, "--rules", "hex-phases+no-flanking"], "does not apply to hex-phases"),
        (vec!["compare", DUEL, "--rules", "d20-classic+kind-dm"], "unknown house rule \"kind-dm\""),
        (vec!["compare", DUEL, "--rules", "ap-phases,ap-phases"], "named twice"),
        (vec!["compare", DUEL, "--ai", "green=greedy"], "side \"green\""),
        (vec!["compare", DUEL, "--ai", "blue=genius"], "unknown AI"),
        (vec!["compare", DUEL, "--battles", "0"], "--battles"),
        (vec!["compare", "/nonexistent/level.ron"], "level.ron"),
        (vec!["compare", DUEL, "--csv", "/nonexistent/dir/out.csv"], "--csv"),
    ];
    for (args, says) in cases {
        let (code, out, err) = fivefoot(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(out.is_empty() && !err.contains("panicked"), "{args:?}");
    }
}

/// `--plot DIR` writes each chart as PNG and SVG: real pictures, labelled with the specs;
/// a bad attacker for the odds is refused before any battle.
#[test]
fn compare_plots_its_charts_as_png_and_svg() {
    let dir = std::env::temp_dir().join(format!("fivefoot-plot-{}", std::process::id()));
    let specs = "d20-classic,hex-phases+double-cover";
    let (code, _, err) =
        fivefoot(&["compare", DUEL, "--rules", specs, "--battles", "6", "--plot", dir.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    for chart in ["win-rates", "battle-length", "damage-per-round", "hit-chance", "expected-damage"] {
        let svg = std::fs::read_to_string(dir.join(format!("{chart}.svg"))).unwrap();
        assert!(
            svg.starts_with("<svg") && svg.contains("hex-phases+double-cover") && svg.contains("d20-classic"),
            "{chart}"
        );
        let png = image::open(dir.join(format!("{chart}.png"))).unwrap().to_rgb8();
        assert_eq!(png.dimensions(), (960, 600), "{chart}");
        let colours: std::collections::BTreeSet<[u8; 3]> = png.pixels().map(|p| p.0).collect();
        assert!(colours.len() > 20, "{chart}: a picture, not a blank ({} colours)", colours.len());
    }
    let (code, out, err) =
        fivefoot(&["compare", DUEL, "--battles", "2", "--plot", dir.to_str().unwrap(), "--attacker", "nobody"]);
    assert!(code == 2 && out.is_empty());
    assert!(err.contains("--plot") && err.contains("no unit \"nobody\""), "{err}");
    let (code, _, err) = fivefoot(&["compare", DUEL, "--attacker", "nobody"]);
    assert_eq!(code, 2, "--attacker needs --plot: {err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A comparison cut into shards and merged back is the whole run, byte for byte; an
/// incomplete or mixed set of shards is refused.
#[test]
fn shards_merged_are_the_whole_run() {
    let dir = std::env::temp_dir().join(format!("fivefoot-shards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rules = "d20-classic,hex-phases";
    let whole_args = ["compare", DUEL, "--rules", rules, "--battles", "10", "--seed", "3", "--json"];
    let (code, whole, err) = fivefoot(&whole_args);
    assert_eq!(code, 0, "{err}");
    let mut files = vec![];
    for k in ["3/3", "1/3", "2/3"] {
        let (code, out, err) =
            fivefoot(&["compare", DUEL, "--rules", rules, "--battles", "10", "--seed", "3", "--shard", k]);
        assert_eq!(code, 0, "{err}");
        let file = dir.join(format!("shard-{}.json", &k[..1]));
        std::fs::write(&file, out).unwrap();
        files.push(file.to_str().unwrap().to_string());
    }
    let merge = |files: &[String], extra: &[&str]| {
        let mut args = vec!["compare", "--merge"];
        args.extend(files.iter().map(String::as_str));
        args.extend(extra);
        fivefoot(&args)
    };
    let (code, merged, err) = merge(&files, &["--json"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(merged, whole, "three shards merged, in any order, are the whole run");
    let (code, _, err) = merge(&files[..2], &[]);
    assert!(code == 2 && err.contains("each of 1 to 3 is needed once"), "{err}");
    // A shard of another comparison (another seed) does not mix in.
    let (_, other, _) =
        fivefoot(&["compare", DUEL, "--rules", rules, "--battles", "10", "--seed", "4", "--shard", "2/3"]);
    let stray = dir.join("stray.json");
    std::fs::write(&stray, other).unwrap();
    let mixed = [files[0].clone(), files[1].clone(), stray.to_str().unwrap().to_string()];
    let (code, _, err) = merge(&mixed, &[]);
    assert!(code == 2 && err.contains("another comparison"), "{err}");
    let (code, _, err) = fivefoot(&["compare", DUEL, "--shard", "0/3"]);
    assert!(code == 2 && err.contains("1 ≤ K ≤ M"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
