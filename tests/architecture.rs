//! The shape of the code, checked: each rule variant's differences live in its own
//! modules (`src/combat/variants/<id>`, and its words in `src/control/vocabulary/<id>`),
//! so outside them a variant is named only where the variants are listed, parsed and
//! labelled; and no source file grows past what can be read in one sitting.

use std::path::{Path, PathBuf};

const VARIANTS: [&str; 5] = ["ApPhases", "FourActions", "D20Classic", "OsrSegments", "HexPhases"];
const MODULES: [&str; 5] = ["ap_phases::", "four_actions::", "d20_classic::", "osr_segments::", "hex_phases::"];

/// Where a variant's own code lives.
const VARIANT_HOMES: [&str; 2] = ["src/combat/variants/", "src/control/vocabulary/"];

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The lines of a file before its unit tests (`#[cfg(test)]`), numbered from 1.
fn code_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().map(|(i, l)| (i + 1, l)).take_while(|(_, l)| l.trim() != "#[cfg(test)]")
}

/// Every place a line names a particular variant: `RulesVariant::X` or a variant module.
fn mentions(line: &str) -> usize {
    let code = line.split("//").next().unwrap_or("");
    VARIANTS.iter().map(|v| code.matches(&format!("RulesVariant::{v}")).count()).sum::<usize>()
        + MODULES.iter().map(|m| code.matches(m).count()).sum::<usize>()
}

#[test]
fn the_counter_sees_a_variant_named() {
    assert_eq!(mentions("if b.variant() == RulesVariant::HexPhases { 1 } else { 2 }"), 1);
    assert_eq!(mentions("variants::four_actions::wrestle(b, i); RulesVariant::D20Classic"), 2);
    assert_eq!(mentions("let v = b.variant(); // RulesVariant::HexPhases"), 0);
    let text = "fn a() { RulesVariant::ApPhases }\n#[cfg(test)]\nmod tests { RulesVariant::ApPhases }\n";
    assert_eq!(code_lines(text).map(|(_, l)| mentions(l)).sum::<usize>(), 1);
}

#[test]
fn variants_are_named_only_where_they_are_listed_parsed_and_labelled() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![];
    sources(&root.join("src"), &mut files);
    files.sort();
    let mut places = vec![];
    for file in &files {
        let rel = file.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
        if VARIANT_HOMES.iter().any(|home| rel.starts_with(home)) {
            continue;
        }
        let text = std::fs::read_to_string(file).unwrap();
        for (n, line) in code_lines(&text) {
            for _ in 0..mentions(line) {
                places.push(format!("{rel}:{n}: {}", line.trim()));
            }
        }
    }
    assert!(!places.is_empty(), "the variants are listed somewhere");
    assert!(places.len() <= 15, "{} places name a variant outside its modules:\n{}", places.len(), places.join("\n"));
}

#[test]
fn no_source_file_is_over_600_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![];
    sources(&root.join("src"), &mut files);
    sources(&root.join("tests"), &mut files);
    sources(&root.join("benches"), &mut files);
    let long: Vec<String> = files
        .iter()
        .filter_map(|f| {
            let n = std::fs::read_to_string(f).unwrap().lines().count();
            (n > 600).then(|| format!("{}: {n} lines", f.display()))
        })
        .collect();
    assert!(files.len() > 50, "the sources were found");
    assert!(long.is_empty(), "files over 600 lines:\n{}", long.join("\n"));
}

/// The modules directly under `src/combat/` (a directory counts as one module) and what
/// each names of the others by path: `super::x`, `super::super::x` from a directory, or
/// `crate::combat::x`, where `x` is a module or an item `combat/mod.rs` re-exports from one.
fn combat_imports() -> std::collections::BTreeMap<String, std::collections::BTreeSet<String>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/combat");
    let mut modules = std::collections::BTreeSet::new();
    for entry in std::fs::read_dir(&root).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        if name != "mod" {
            modules.insert(name);
        }
    }
    // `pub use module::{A, B};` in combat/mod.rs: the item names and where they come from.
    let mod_rs = std::fs::read_to_string(root.join("mod.rs")).unwrap();
    let mut reexported = std::collections::BTreeMap::new();
    for line in mod_rs.lines().filter_map(|l| l.trim().strip_prefix("pub use ")) {
        let Some((from, items)) = line.trim_end_matches(';').split_once("::") else { continue };
        for item in items.trim_matches(|c| c == '{' || c == '}').split(',') {
            let item = item.trim().rsplit(" as ").next().unwrap().to_string();
            reexported.insert(item, from.to_string());
        }
    }
    let mut files = vec![];
    sources(&root, &mut files);
    let mut edges: std::collections::BTreeMap<String, std::collections::BTreeSet<String>> = Default::default();
    for file in files {
        let rel = file.strip_prefix(&root).unwrap();
        let parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string()).collect();
        if parts == ["mod"] {
            continue;
        }
        let me = parts[0].clone();
        let depth = parts.len() - usize::from(parts.last().is_some_and(|p| p == "mod"));
        let up = if depth == 1 { "super::" } else { "super::super::" };
        let text = std::fs::read_to_string(&file).unwrap();
        for (_, line) in code_lines(&text) {
            let code = line.split("//").next().unwrap_or("");
            for prefix in [up, "crate::combat::"] {
                for (at, _) in code.match_indices(prefix) {
                    // `super::super::x` is not `super::x` seen one level down.
                    if prefix == "super::" && code[..at].ends_with("super::") {
                        continue;
                    }
                    let rest = &code[at + prefix.len()..];
                    let names: Vec<&str> = match rest.strip_prefix('{') {
                        Some(group) => group.split('}').next().unwrap_or("").split(',').collect(),
                        None => vec![rest],
                    };
                    for name in names {
                        let name: String =
                            name.trim().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                        let to = if modules.contains(&name) { Some(name) } else { reexported.get(&name).cloned() };
                        if let Some(to) = to.filter(|t| *t != me) {
                            edges.entry(me.clone()).or_default().insert(to);
                        }
                    }
                }
            }
        }
    }
    edges
}

/// A cycle among `edges`, if there is one.
fn a_cycle(edges: &std::collections::BTreeMap<String, std::collections::BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        at: &str,
        edges: &std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut std::collections::BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| p == at) {
            return Some(path[i..].to_vec());
        }
        if !done.insert(at.to_string()) {
            return None;
        }
        path.push(at.to_string());
        for next in edges.get(at).into_iter().flatten() {
            if let Some(cycle) = visit(next, edges, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        None
    }
    let mut done = std::collections::BTreeSet::new();
    edges.keys().find_map(|start| visit(start, edges, &mut vec![], &mut done))
}

#[test]
fn the_combat_modules_import_each_other_in_layers_without_a_cycle() {
    let edges = combat_imports();
    // The parser sees the layers: the schedule is built on resolve, the variants on the
    // schedule, and the engine on the variants.
    assert!(edges["schedule"].contains("resolve") && edges["variants"].contains("schedule"));
    assert!(edges["engine"].contains("variants") && edges["resolve"].contains("battle"));
    assert_eq!(a_cycle(&edges), None, "{edges:#?}");
    // Positive control: a back edge is found.
    let mut with_back_edge = edges.clone();
    with_back_edge.entry("battle".into()).or_default().insert("engine".into());
    assert!(a_cycle(&with_back_edge).is_some());
}

/// The methods of the trait named `name` in `text`, each as its signature, however many
/// lines it takes (up to its body or its `;`), joined.
fn trait_methods(text: &str, name: &str) -> Vec<String> {
    let open = format!("trait {name}");
    let body: Vec<&str> = text.lines().skip_while(|l| !l.contains(&open)).skip(1).take_while(|l| *l != "}").collect();
    let mut methods = Vec::new();
    for (i, _) in body.iter().enumerate().filter(|(_, l)| l.starts_with("    fn ")) {
        let ends = body[i..].iter().position(|l| l.contains('{') || l.trim_end().ends_with(';')).unwrap_or(0);
        methods.push(body[i..=i + ends].iter().map(|l| l.trim()).collect::<Vec<_>>().join(" "));
    }
    methods
}

#[test]
fn the_counter_finds_a_traits_methods() {
    let text = "pub trait Other {\n    fn a(&self);\n}\npub(crate) trait Slots: Sync {\n    fn b(\n        &self,\n        b: &mut Battle,\n    ) {}\n    /// doc\n    fn c<'x>(&self) -> u8 {\n        0\n    }\n    fn e(&self);\n}\nfn d() {}\n";
    assert_eq!(
        trait_methods(text, "Slots"),
        ["fn b( &self, b: &mut Battle, ) {}", "fn c<'x>(&self) -> u8 {", "fn e(&self);"]
    );
}

/// What differs between the variants in the middle of a rule is a system of the variant's
/// plugin; the trait of hooks the shared rules call keeps only pure formulas and predicates
/// over the battle, a handful of them: none is handed the battle to change.
#[test]
fn the_variants_hooks_are_a_handful_of_pure_formulas() {
    let text = std::fs::read_to_string("src/combat/battle/slots.rs").unwrap();
    let methods = trait_methods(&text, "VariantRules");
    assert!(methods.len() >= 5, "the trait was found: {methods:?}");
    assert!(methods.len() <= 8, "{} hooks: {methods:#?}", methods.len());
    let acting: Vec<_> = methods.iter().filter(|m| m.contains("&mut Battle")).collect();
    assert!(acting.is_empty(), "hooks that change the battle: {acting:#?}");
}

/// The first parameter of each function `names` in `text`, as written (`None` if a name is
/// not defined there).
fn first_parameters<'a>(text: &'a str, names: &[&str]) -> Vec<Option<&'a str>> {
    names
        .iter()
        .map(|name| {
            let at = text.find(&format!("fn {name}("))? + name.len() + 4;
            text[at..].split([',', ')']).next().map(str::trim)
        })
        .collect()
}

#[test]
fn the_rules_that_act_take_the_world_and_fighters_by_entity_not_the_lent_battle() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/combat/resolve");
    let text: String = ["strike.rs", "reactions.rs", "magic.rs", "harm.rs", "actions.rs", "movement.rs"]
        .iter()
        .map(|f| std::fs::read_to_string(dir.join(f)).unwrap())
        .chain(
            ["advanced.rs", "grapple.rs", "maneuvers.rs"]
                .iter()
                .map(|f| std::fs::read_to_string(dir.join("../variants/ap_phases").join(f)).unwrap()),
        )
        .collect();
    let pipeline = [
        "attack_routine",
        "roll_attack",
        "deal_damage",
        "held_attack",
        "charge_attack",
        "opportunity",
        "provoke_threateners",
        "apply_damage",
        "set_condition",
        "go_off_together",
        "provoked_by_casting",
        "take_effect",
        "lost",
        "maneuver_checked",
        "release",
        "drag_beside",
        "held_strikers",
        "kill",
        "check",
        "coup_de_grace",
        "first_aid",
        "complete_advanced",
        "advanced_action_goes_on",
        "complete_grapple",
        "complete_continue",
        "grapple_check",
    ];
    for (name, first) in pipeline.iter().zip(first_parameters(&text, &pipeline)) {
        assert_eq!(first, Some("world: &mut World"), "{name}");
    }
    // Positive control: a check, which reads the battle, is told apart.
    let checks = std::fs::read_to_string(dir.join("magic.rs")).unwrap();
    assert_eq!(first_parameters(&checks, &["check"]), [Some("b: &Battle")]);
}

/// Nothing changes a battle through the `Battle` lens: it is a read-only view, and no code
/// in `src/` takes it mutably or holds the world through an unsafe cell to change it.
#[test]
fn the_battle_lens_only_reads() {
    let (mut seen, mut files) = (0, vec![]);
    sources(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut files);
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or_default();
            assert!(
                !code.contains("&mut Battle<") && !code.contains("&mut Battle,") && !code.contains("&mut Battle)"),
                "{}:{}: {line}",
                file.display(),
                n + 1
            );
            assert!(
                !code.contains("get_resource_mut") || !code.contains("cell."),
                "{}:{}: {line}",
                file.display(),
                n + 1
            );
            seen += code.contains("&Battle") as usize;
        }
    }
    assert!(seen > 100, "the scan read the readers of the battle ({seen})");
}
