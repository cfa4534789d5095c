//! Structure-aware fuzzing on stable Rust, driven by proptest: the level loader (arbitrary
//! bytes, and the shipped levels cut, duplicated, swapped, with huge numbers, unicode and
//! deep nesting), the catalogue and bindings loaders, edit scripts (mutated, then undone to
//! the level they started from), and the command executor (random
//! commands, legal or not, from random reachable battle states under every variant, with
//! every invariant of `Battle::check_invariants` checked after each).
//! Every target must answer with a value or an error, never a panic; a level the loader
//! accepts must also make a battle that plays.
//!
//! `cargo test` runs each target briefly. `scripts/fuzz [SECONDS]` runs them for longer
//! (`FIVEFOOT_FUZZ_CASES` sets the cases per run). Any failing input proptest finds is
//! written to `tests/fuzz.proptest-regressions` and replayed first on every later run.

use fivefoot::combat::ai::{Ai, Greedy};
use fivefoot::combat::command::{GrappleFollowUp, Intent, Stance};
use fivefoot::combat::{BattleOptions, BattleWorld, Command};
use fivefoot::editor::{Document, Edit};
use fivefoot::grid::GridPos;
use fivefoot::input::Bindings;
use fivefoot::level::{Catalogue, Level};
use fivefoot::variants::RulesVariant;
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;
use std::path::Path;

fn cases(default: u32) -> u32 {
    std::env::var("FIVEFOOT_FUZZ_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(default)
}

fn config(default_cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases: cases(default_cases),
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource("proptest-regressions"))),
        ..ProptestConfig::default()
    }
}

const LEVELS: [&str; 6] = [
    include_str!("../levels/skirmish.ron"),
    include_str!("../levels/ogre-ruins.ron"),
    include_str!("../levels/hex-field.ron"),
    include_str!("../levels/pike-corridor.ron"),
    include_str!("../levels/mage-duel.ron"),
    include_str!("../tests/fixtures/reach-corridor.ron"),
];

/// One change to a text, the way hand-edited and shared files go wrong.
#[derive(Clone, Debug)]
enum Mutation {
    Cut(usize),
    DuplicateLine(usize),
    SwapLines(usize, usize),
    DropLine(usize),
    HugeNumber(usize, &'static str),
    Insert(usize, String),
    Nest(usize, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let huge = prop::sample::select(vec![
        "99999999999999999999999",
        "-1",
        "-2147483648",
        "2147483647",
        "4294967295",
        "1073741825",
        "0",
        "65",
        "1e308",
    ]);
    prop_oneof![
        any::<usize>().prop_map(Mutation::Cut),
        any::<usize>().prop_map(Mutation::DuplicateLine),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Mutation::SwapLines(a, b)),
        any::<usize>().prop_map(Mutation::DropLine),
        (any::<usize>(), huge).prop_map(|(a, n)| Mutation::HugeNumber(a, n)),
        (any::<usize>(), "[\\PC]{0,6}").prop_map(|(a, s)| Mutation::Insert(a, s)),
        (any::<usize>(), 1usize..400).prop_map(|(a, n)| Mutation::Nest(a, n)),
    ]
}

fn char_boundary(text: &str, at: usize) -> usize {
    let mut i = at % (text.len() + 1);
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn apply(text: &str, m: &Mutation) -> String {
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let n = lines.len().max(1);
    match m {
        Mutation::Cut(at) => text[..char_boundary(text, *at)].to_string(),
        Mutation::DuplicateLine(i) => {
            if let Some(l) = lines.get(i % n).cloned() {
                lines.insert(i % n, l);
            }
            lines.join("\n")
        }
        Mutation::SwapLines(a, b) => {
            if !lines.is_empty() {
                lines.swap(a % n, b % n);
            }
            lines.join("\n")
        }
        Mutation::DropLine(i) => {
            if !lines.is_empty() {
                lines.remove(i % n);
            }
            lines.join("\n")
        }
        Mutation::HugeNumber(at, num) => {
            // Replace the first number at or after `at`.
            let start = char_boundary(text, *at);
            match text[start..].find(|c: char| c.is_ascii_digit()) {
                Some(off) => {
                    let s = start + off;
                    let e = text[s..].find(|c: char| !c.is_ascii_digit()).map_or(text.len(), |k| s + k);
                    format!("{}{num}{}", &text[..s], &text[e..])
                }
                None => text.to_string(),
            }
        }
        Mutation::Insert(at, s) => {
            let i = char_boundary(text, *at);
            format!("{}{s}{}", &text[..i], &text[i..])
        }
        Mutation::Nest(at, depth) => {
            let i = char_boundary(text, *at);
            format!("{}{}{}{}", &text[..i], "(".repeat(*depth), ")".repeat(*depth), &text[i..])
        }
    }
}

/// A level the loader accepts must make a battle that plays: a few AI commands under
/// every variant.
fn play_a_little(level: &Level) {
    let cat = Catalogue::builtin_ref();
    for v in RulesVariant::ALL {
        let mut b = BattleWorld::new(level, cat, v, 1, BattleOptions::default());
        for _ in 0..12 {
            let Some(actor) = b.actor() else { break };
            let cmd = Greedy.decide(&mut b, actor);
            if b.execute(cmd).is_err() {
                let _ = b.execute(Command::EndTurn);
            }
        }
    }
}

proptest! {
    #![proptest_config(config(48))]

    #[test]
    fn the_level_loader_never_panics_on_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = Level::parse(&text, Path::new("fuzz.ron"), Catalogue::builtin_ref());
    }

    #[test]
    fn the_level_loader_never_panics_on_mutated_levels(
        which in 0..LEVELS.len(),
        mutations in prop::collection::vec(mutation(), 1..4),
    ) {
        let text = mutations.iter().fold(LEVELS[which].to_string(), |t, m| apply(&t, m));
        if let Ok(level) = Level::parse(&text, Path::new("fuzz.ron"), Catalogue::builtin_ref()) {
            play_a_little(&level);
        }
    }

    #[test]
    fn the_catalogue_loader_never_panics_on_mutated_catalogues(
        which in 0..3usize,
        mutations in prop::collection::vec(mutation(), 1..4),
    ) {
        let mut files = [
            include_str!("../assets/creatures.ron").to_string(),
            include_str!("../assets/weapons.ron").to_string(),
            include_str!("../assets/spells.ron").to_string(),
        ];
        files[which] = mutations.iter().fold(files[which].clone(), |t, m| apply(&t, m));
        let _ = Catalogue::parse(&files[0], &files[1], &files[2]);
    }

    #[test]
    fn edit_scripts_never_panic_and_undoing_every_applied_edit_gives_the_level_back(
        which in 0..LEVELS.len(),
        mutations in prop::collection::vec(mutation(), 0..4),
    ) {
        let text = mutations.iter().fold(include_str!("fixtures/edits.ron").to_string(), |t, m| apply(&t, m));
        let Ok(edits) = fivefoot::level::ron_options().from_str::<Vec<Edit>>(&text) else { return Ok(()) };
        let Ok(def) = fivefoot::level::ron_options().from_str::<fivefoot::level::LevelDef>(LEVELS[which]) else {
            return Ok(());
        };
        let mut doc = Document::new(def.clone());
        for edit in &edits {
            let _ = doc.apply(edit, Catalogue::builtin_ref());
        }
        while doc.can_undo() {
            doc.apply(&Edit::Undo, Catalogue::builtin_ref()).unwrap();
        }
        prop_assert_eq!(doc.level(), &def);
    }

    #[test]
    fn the_bindings_loader_never_panics_on_mutated_bindings(mutations in prop::collection::vec(mutation(), 1..4)) {
        let text = mutations.iter().fold(include_str!("../assets/bindings.ron").to_string(), |t, m| apply(&t, m));
        if let Ok(b) = Bindings::parse(&text, Path::new("fuzz-bindings.ron")) {
            let _ = b.input_map();
        }
    }
}

/// A command built from small numbers: targets are picked among the battle's units (foes,
/// friends, the fallen) or are names nobody has; squares may lie off the map.
#[derive(Clone, Debug)]
struct RawCommand {
    kind: u8,
    unit: usize,
    x: i32,
    y: i32,
    flag: bool,
}

fn raw_command() -> impl Strategy<Value = RawCommand> {
    (0u8..30, any::<usize>(), -3i32..40, -3i32..40, any::<bool>()).prop_map(|(kind, unit, x, y, flag)| RawCommand {
        kind,
        unit,
        x,
        y,
        flag,
    })
}

fn command(b: &BattleWorld, raw: &RawCommand) -> Command {
    let names: Vec<String> =
        b.read().fighters.iter().map(|f| f.id().to_string()).chain(["nobody".to_string()]).collect();
    let target = names[raw.unit % names.len()].clone();
    let to = GridPos::new(raw.x, raw.y);
    let spell = if raw.flag { "magic_missile" } else { "cure_light_wounds" }.to_string();
    match raw.kind {
        0 => Command::Move { to },
        1 => Command::Step { to },
        2 => Command::Attack { target },
        3 => Command::FullAttack { target },
        4 => Command::Charge { target },
        5 => Command::Defend,
        6 => Command::Delay,
        7 => Command::Stand,
        8 => Command::Trip { target },
        9 => Command::Shove { target },
        10 => Command::Disarm { target },
        11 => Command::Grapple { target },
        12 => Command::Escape,
        13 => Command::Reload,
        14 => Command::Dash { to },
        15 => Command::Tumble { to },
        16 => Command::Hold { target: raw.flag.then_some(target) },
        17 => Command::Stance { stance: if raw.flag { Stance::Defensive } else { Stance::Reckless } },
        18 => Command::Guard,
        19 => Command::Focus,
        20 => Command::Declare {
            intent: match raw.unit % 4 {
                0 => Intent::Fight,
                1 => Intent::Charge { target },
                2 => Intent::Delay,
                _ => Intent::Cast { spell },
            },
        },
        21 => Command::AbortOrder { on: raw.flag },
        22 => Command::Cast { spell, target, defensive: raw.flag },
        23 => Command::Wrestle {
            follow_up: [
                GrappleFollowUp::Maintain,
                GrappleFollowUp::End,
                GrappleFollowUp::Trip,
                GrappleFollowUp::Push,
                GrappleFollowUp::Attack,
                GrappleFollowUp::Pin,
                GrappleFollowUp::Move { to },
            ][raw.unit % 7],
        },
        24 => Command::CoupDeGrace { target },
        25 => Command::FirstAid { target },
        _ => Command::EndTurn,
    }
}

proptest! {
    #![proptest_config(config(24))]

    #[test]
    fn the_command_executor_never_panics_and_validate_ok_means_execute_ok(
        variant in 0..5usize,
        seed in 0u64..1000,
        warm_up in 0usize..60,
        level in 0..5usize,
        raws in prop::collection::vec(raw_command(), 1..40),
    ) {
        let v = RulesVariant::ALL[variant];
        let cat = Catalogue::builtin_ref();
        let lvl = Level::parse(LEVELS[level], Path::new("fuzz.ron"), cat).unwrap();
        let mut b = BattleWorld::new(&lvl, cat, v, seed, BattleOptions::default());
        // A random reachable state: the AI plays a while.
        for _ in 0..warm_up {
            let Some(actor) = b.actor() else { break };
            let cmd = Greedy.decide(&mut b, actor);
            if b.execute(cmd).is_err() {
                b.execute(Command::EndTurn).unwrap();
            }
        }
        let mut mark = Some(b.check_invariants(None).unwrap());
        for raw in &raws {
            if b.actor().is_none() {
                break;
            }
            let cmd = command(&b, raw);
            let valid = b.fork(false).validate(&cmd).is_ok();
            let done = b.execute(cmd.clone());
            prop_assert!(!valid || done.is_ok(), "{cmd:?} was valid but failed: {done:?}");
            match b.check_invariants(mark) {
                Ok(now) => mark = Some(now),
                Err(why) => prop_assert!(false, "after {:?}: {}", cmd, why),
            }
        }
    }
}
