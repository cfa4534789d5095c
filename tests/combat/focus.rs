//! four-actions: "A caster must also present a Spellcasting Focus … (this requires a
//! [Magical Aptitude] check against a DC numbering 13+ Spell Order doubled)". The war mage:
//! caster level 1, Int 17 (+3), so Magical Aptitude +4; magic missile is of Spell Order 1,
//! so DC 13 + 2 × 1 = 15.

use super::spells::{cast, damage_to, spoiled};
use super::*;

fn mage_casts(v: RulesVariant, seed: u64) -> BattleWorld {
    let mut b = battle(
        vec![unit("mage", "blue", (1, 1), "war_mage", None), unit("gob", "red", (6, 4), "goblin", None)],
        v,
        seed,
    );
    until(&mut b, "mage", |_| true);
    b.execute(cast("magic_missile", "gob", false)).unwrap();
    b
}

#[test]
fn a_four_actions_caster_presents_its_focus_against_13_plus_twice_the_spell_order() {
    let (mut presented, mut failed) = (0, 0);
    for seed in 0..30 {
        let b = mage_casts(RulesVariant::FourActions, seed);
        let check = b.events().iter().find_map(|e| match e {
            CombatEvent::Save { unit, kind, roll, bonus, dc, success }
                if kind.starts_with("Magical Aptitude (spellcasting focus") =>
            {
                assert_eq!(unit, "mage");
                Some((*roll, *bonus, *dc, *success))
            }
            _ => None,
        });
        let (roll, bonus, dc, success) = check.expect("casting calls for the focus check");
        assert_eq!((bonus, dc), (4, 15));
        assert_eq!(success, roll + 4 >= 15, "d20 {roll}");
        let mage = b.index_of("mage").unwrap();
        let sq = b.read().fighters.stats[mage].def.spellcasting.as_ref().unwrap().slots;
        if success {
            presented += 1;
            assert_eq!(b.read().fighters.spells[mage].left, sq - 1, "the spell's Spell Order in SQ is spent");
            assert!(spoiled(&b, "mage").is_empty());
        } else {
            failed += 1;
            assert_eq!(spoiled(&b, "mage"), vec!["no spellcasting focus presented".to_string()]);
            assert_eq!(b.read().fighters.spells[mage].left, sq, "no SQ channelled");
            assert_eq!(damage_to(&b, "gob"), 0, "no missile");
        }
    }
    assert!(presented > 0 && failed > 0, "presented {presented}, failed {failed}");
    // Positive control: d20-classic has no focus check; its casting goes straight on.
    let b = mage_casts(RulesVariant::D20Classic, 0);
    assert!(!b.events().iter().any(|e| matches!(e, CombatEvent::Save { kind, .. } if kind.contains("focus"))));
}
