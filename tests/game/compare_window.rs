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
