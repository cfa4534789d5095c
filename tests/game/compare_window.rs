//! The variants side by side: one board per spec, each its own battle of the same level and
//! seed, stepped together one command at a time; each board plays the battle `sim` plays.

use super::*;
use fivefoot::compare::VariantSpec;
use fivefoot::compare::window::{Boards, CompareSetup};

fn setup(specs: Vec<VariantSpec>) -> CompareSetup {
    CompareSetup {
        level: std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/mage-duel.ron"),
        specs,
        seed: 9,
        ais: Default::default(),
        batch: None,
    }
}

#[test]
fn every_board_steps_together_and_plays_the_battle_sim_plays() {
    let mut boards = Boards::new(&setup(VariantSpec::all())).unwrap();
    assert_eq!(boards.boards.len(), 5);
    // Laid out apart: no two boards' centres closer than a board is wide.
    for (i, a) in boards.boards.iter().enumerate() {
        for b in &boards.boards[i + 1..] {
            assert!(a.centre.distance(b.centre) >= a.layout.extent().x.min(a.layout.extent().y), "boards overlap");
        }
    }
    // One step: one command on every board.
    let before: Vec<usize> = boards.boards.iter().map(|b| b.battle.events().len()).collect();
    assert!(boards.step());
    assert_eq!(boards.steps, 1);
    for (b, n) in boards.boards.iter().zip(before) {
        assert!(b.battle.events().len() > n, "{}: a command was played", b.spec);
    }
    for _ in 0..5_000 {
        if !boards.step() {
            break;
        }
    }
    assert!(boards.boards.iter().all(|b| b.battle.is_over()), "every battle is played out");
    assert!(!boards.step(), "nothing is left to play");
    let level = Level::load(&setup(vec![]).level, &Catalogue::builtin()).unwrap();
    for b in &boards.boards {
        // The same level, seed and AI as `sim --rules V --seed 9`: the same battle.
        let mut alone = BattleWorld::new(&level, &Catalogue::builtin(), b.spec.rules, 9, BattleOptions::default());
        alone.run(&mut |_| None);
        assert_eq!(b.battle.events(), alone.events(), "{}", b.spec);
    }
}

#[test]
fn a_board_takes_its_specs_house_rules_and_a_bad_level_is_an_error() {
    let specs = VariantSpec::parse_list("d20-classic,d20-classic+no-flanking").unwrap();
    let boards = Boards::new(&setup(specs)).unwrap();
    assert!(boards.boards[0].battle.house_rules().is_empty());
    assert_eq!(boards.boards[1].battle.house_rules().iter().map(|h| h.id()).collect::<Vec<_>>(), ["no-flanking"]);
    let mut bad = setup(VariantSpec::all());
    bad.level = "/nonexistent/level.ron".into();
    let err = Boards::new(&bad).err().expect("no such level");
    assert!(err.contains("level.ron"), "{err}");
}

/// The window's batch plays its battles a chunk at a time, and what comes in, joined, is the
/// comparison `compare` makes of them all (the charts the window draws are the report's).
#[test]
fn the_window_s_batch_in_chunks_is_the_whole_comparison() {
    use fivefoot::compare::batch::{CompareSpec, report_of, run_specs};
    use fivefoot::compare::live::{CHUNK, play_in_chunks};
    let catalogue = Catalogue::builtin();
    let level = Level::load(&setup(vec![]).level, &catalogue).unwrap();
    let specs = VariantSpec::parse_list("hex-phases,d20-classic+no-flanking").unwrap();
    let battles = 2 * CHUNK + 5;
    let spec = CompareSpec { variants: specs, battles, seed: 9, ais: Default::default(), threads: 1 };
    let whole = run_specs(&level, &catalogue, &spec, 0, &mut |_| {}).unwrap();
    let mut joined: Vec<fivefoot::compare::batch::SpecRun> = Vec::new();
    let mut seen = Vec::new();
    let stop = std::sync::atomic::AtomicBool::new(false);
    play_in_chunks(&level, &catalogue, &spec, battles, &stop, &mut |runs, done| {
        seen.push(done);
        if joined.is_empty() {
            joined = runs;
        } else {
            for (j, part) in joined.iter_mut().zip(runs) {
                j.battles.extend(part.battles);
            }
        }
    })
    .unwrap();
    assert_eq!(seen, [CHUNK, 2 * CHUNK, battles]);
    assert_eq!(joined, whole);
    let sides = fivefoot::combat::sim::sides_of(&level);
    assert_eq!(report_of("m", 9, &sides, &joined), report_of("m", 9, &sides, &whole));
    // Stopped, it plays nothing more.
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let mut more = 0;
    play_in_chunks(&level, &catalogue, &spec, battles, &stop, &mut |_, _| more += 1).unwrap();
    assert_eq!(more, 0);
}

/// A battle picked in the batch's list is replayed on the boards as it went in the batch:
/// the boards started again from seed S + i play to the same winner in the same rounds.
#[test]
fn a_battle_of_the_batch_watched_on_the_boards_is_the_same_battle() {
    use fivefoot::compare::batch::{CompareSpec, run_specs};
    let catalogue = Catalogue::builtin();
    let specs = VariantSpec::parse_list("ap-phases,osr-segments").unwrap();
    let mut boards = Boards::new(&setup(specs.clone())).unwrap();
    let level = Level::load(&setup(vec![]).level, &catalogue).unwrap();
    let spec = CompareSpec { variants: specs.clone(), battles: 4, seed: 9, ais: boards.ais(), threads: 1 };
    let runs = run_specs(&level, &catalogue, &spec, 0, &mut |_| {}).unwrap();
    for i in [1u64, 3] {
        boards.selected = Some("kept".into());
        boards.restart(&CompareSetup { seed: 9 + i, ..setup(specs.clone()) }).unwrap();
        assert_eq!(boards.seed, 9 + i);
        assert_eq!(boards.selected.as_deref(), Some("kept"), "the selected unit stays selected");
        while boards.step() {}
        for (board, run) in boards.boards.iter().zip(&runs) {
            let summary = &run.battles[i as usize];
            assert_eq!(summary.seed, 9 + i);
            let winner = board.battle.winner().flatten().unwrap_or_else(|| "draw".into());
            assert_eq!(
                (winner, board.battle.clock().round),
                (summary.winner.clone(), summary.rounds),
                "{}",
                board.spec
            );
        }
    }
}
