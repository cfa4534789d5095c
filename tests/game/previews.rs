//! Previews before acting: the path's attacks of opportunity, the attack breakdown against the query oracle, threat and range layers, provoking actions, the charge's attack.

use super::action_bar::hero_acting;
use super::*;
use fivefoot::rules::Conditions;
use fivefoot::rules::Position;

#[test]
fn the_path_preview_names_who_makes_each_attack_of_opportunity() {
    let b = hero_acting(duel(RulesVariant::D20Classic));
    let humans = vec!["blue".to_string()];
    let sel = Selection { unit: b.index_of("hero"), tool: Tool::Move };
    let p = compute_preview(&b, &humans, &sel, Some(GridPos::new(2, 0)), Layers::default());
    let path = p.path.expect("a path");
    assert_eq!(path.squares.last(), Some(&GridPos::new(2, 0)));
    assert_eq!(path.provokes, vec![(GridPos::new(2, 3), "gob".to_string())]);
    assert!(!p.range.is_empty(), "the range layer is on");
    // Stepping west to (1, 3), next to nobody, still leaves the goblin's reach: one attack
    // of opportunity, the goblin's, where the hero starts (the spearman's ring is far off).
    let p = compute_preview(&b, &humans, &sel, Some(GridPos::new(1, 3)), Layers::default());
    assert_eq!(p.path.unwrap().provokes, vec![(GridPos::new(2, 3), "gob".to_string())]);
}

#[test]
fn the_attack_breakdown_matches_the_query_oracle() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ogre-bridge.ron");
    let catalogue = Catalogue::builtin();
    let l = Level::load(&path, &catalogue).unwrap();
    for v in RulesVariant::ALL {
        let mut b = BattleWorld::new(&l, &catalogue, v, 3, BattleOptions::default());
        // As the query does: a fight under way, nobody surprised or flat-footed.
        b.scene().each::<Conditions>(|c| {
            c.remove(Condition::Surprised);
            c.remove(Condition::FlatFooted);
        });
        let hero = b.index_of("hero").unwrap();
        let brute = b.index_of("brute").unwrap();
        // Put the hero next to the ogre, and wait until it may attack.
        b.scene().fighter::<Position>(hero).0 = GridPos::new(4, 1);
        for _ in 0..60 {
            if b.actor() == Some(hero) && b.validate(&Command::Attack { target: "brute".into() }).is_ok() {
                break;
            }
            b.execute(Command::EndTurn).unwrap();
            b.scene().each::<Conditions>(|c| {
                c.remove(Condition::Surprised);
                c.remove(Condition::FlatFooted);
            });
        }
        let sel = Selection { unit: Some(hero), tool: Tool::Attack };
        let cell = b.read().fighters.position[brute].0;
        let p = compute_preview(&b, &["blue".to_string()], &sel, Some(cell), Layers::default());
        let a = p.attack.unwrap_or_else(|| panic!("{v}: no attack preview ({:?})", p.refusal));

        let mut lvl = l.clone();
        lvl.def.units[0].at = (4, 1);
        let q = fivefoot::query::attack_json(&lvl, &catalogue, v, &[], "hero", "brute").unwrap();
        let json: serde_json::Value = serde_json::from_str(&q).unwrap();
        assert_eq!(json["target_number"], a.profile.target_number, "{v}");
        assert_eq!(json["hit_chance"].as_f64().unwrap(), a.profile.hit_chance, "{v}");
        let mods: Vec<(String, i64)> = json["modifiers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| (m["source"].as_str().unwrap().to_string(), m["value"].as_i64().unwrap()))
            .collect();
        let shown: Vec<(String, i64)> =
            a.profile.modifiers.iter().map(|m| (m.source.clone(), m.value as i64)).collect();
        assert_eq!(mods, shown, "{v}");
        if v == RulesVariant::D20Classic {
            // By hand from the catalogue: the ogre's AC is 10 + armor 4 + natural 5 + Dex 8
            // (-1) + Large (-1) = 17; the fighter's longsword is BAB 1 + Str 16 (+3) = +4;
            // d20 + 4 >= 17 on 13..20: 8 in 20.
            assert_eq!(a.profile.target_number, 17, "{:?}", a.profile.modifiers);
            assert_eq!(a.profile.modifiers.iter().map(|m| m.value).sum::<i32>(), 4, "{:?}", a.profile.modifiers);
            assert_eq!(a.profile.hit_chance, 0.40);
        }
    }
}

#[test]
fn the_enemy_threat_layer_counts_threateners() {
    let b = hero_acting(duel(RulesVariant::D20Classic));
    let layers = Layers { enemy_threat: true, ..Layers::default() };
    let sel = Selection::default();
    let p = compute_preview(&b, &["blue".to_string()], &sel, None, layers);
    let at = |x, y| p.enemy_threat.iter().find(|(c, _)| *c == GridPos::new(x, y)).map_or(0, |(_, n)| *n);
    // The spearman's longspear threatens (5, 3) at 10 ft; the goblin does not reach it.
    assert_eq!(at(5, 3), 1);
    // (4, 3): next to the goblin, and 15 ft from the spearman (outside its reach).
    assert_eq!(at(4, 3), 1);
    assert_eq!(at(0, 0), 0);
    // Hovering a unit shows its own threatened squares: a longspear's donut of 16.
    let pike = b.read().fighters.position[b.index_of("pike").unwrap()].0;
    let p = compute_preview(&b, &["blue".to_string()], &sel, Some(pike), Layers::default());
    assert_eq!(p.hovered_threat.len(), 16);
}

#[test]
fn with_a_foe_tool_in_hand_the_range_layer_marks_the_foes_it_reaches() {
    let b = hero_acting(duel(RulesVariant::D20Classic));
    let humans = vec!["blue".to_string()];
    let sel = Selection { unit: b.index_of("hero"), tool: Tool::Attack };
    let p = compute_preview(&b, &humans, &sel, None, Layers::default());
    let cells: Vec<GridPos> = p.range.iter().map(|(c, _)| *c).collect();
    assert_eq!(cells, vec![GridPos::new(3, 3)], "only the adjacent goblin can be attacked");
    // With the charge in hand, only foes' squares are marked, each one a legal charge.
    let sel = Selection { unit: b.index_of("hero"), tool: Tool::Charge };
    let p = compute_preview(&b, &humans, &sel, None, Layers::default());
    for (c, _) in &p.range {
        let foe = b
            .read()
            .fighters
            .iter()
            .find(|f| f.side().0 == "red" && f.footprint().contains(*c))
            .map(|f| f.id().to_string())
            .expect("a foe's square");
        assert!(b.validate(&Command::Charge { target: foe }).is_ok());
    }
}

/// Every action that provokes warns before it is taken, naming who gets the attack: firing
/// and casting in melee in the preview of the aimed action, standing up and reloading on
/// the action bar; with nobody threatening, the same actions warn of nothing.
#[test]
fn every_action_that_provokes_warns_in_its_preview_under_every_variant() {
    use RulesVariant::*;
    let humans = vec!["blue".to_string()];
    // (variant, with a foe beside the actor?) -> the warnings seen.
    for v in RulesVariant::ALL {
        for beside in [true, false] {
            let gob_at = if beside { (2, 1) } else { (5, 6) };
            let units = vec![
                unit("shooter", "blue", (1, 1), "human_archer"),
                unit("mage", "blue", (1, 2), "war_mage"),
                unit("xbow", "blue", (0, 1), "crossbowman"),
                unit("gob", "red", gob_at, "goblin"),
                unit("far", "red", (9, 5), "goblin"),
            ];
            let l = level(&OPEN, units, v);
            let fresh = BattleWorld::new(&l, &Catalogue::builtin(), v, 3, BattleOptions::default());
            let warned = |b: &mut BattleWorld, who: &str, tool: Tool| {
                let sel = Selection { unit: b.index_of(who), tool };
                let p = compute_preview(b, &humans, &sel, Some(GridPos::new(9, 5)), Layers::default());
                p.provokes
            };
            // Firing a bow at the far goblin.
            let mut b = acting(fresh.fork(false), "shooter");
            let fire = warned(&mut b, "shooter", Tool::Attack);
            let provokes = beside && matches!(v, D20Classic | ApPhases);
            assert_eq!(
                fire.iter().any(|(by, why)| by == "gob" && why == "fires in melee"),
                provokes,
                "{v} firing: {fire:?}"
            );
            if !beside {
                assert!(fire.is_empty(), "{v}: nobody threatens the shooter: {fire:?}");
            }
            // Casting magic missile at it.
            if v != HexPhases {
                let mut b = acting(fresh.fork(false), "mage");
                let cast = warned(&mut b, "mage", Tool::Cast { spell: "magic_missile", defensive: false });
                let provokes = beside && matches!(v, D20Classic | FourActions | ApPhases);
                assert_eq!(cast.iter().any(|(by, _)| by == "gob"), provokes, "{v} casting: {cast:?}");
            }
            // Standing up from prone, on the action bar.
            let mut b = acting(fresh.fork(false), "shooter");
            let s = b.index_of("shooter").unwrap();
            b.scene().fighter::<Conditions>(s).add(Condition::Prone);
            let bar = action_bar(&b);
            let stand = bar.iter().find(|slot| slot.label == "Stand up").expect("a Stand up slot");
            if stand.state.is_ok() {
                let provokes = beside && matches!(v, D20Classic | ApPhases | HexPhases);
                let named = stand.provokes.iter().any(|p| p == "gob (stands up)");
                assert_eq!(named, provokes, "{v} standing up: {:?}", stand.provokes);
            }
        }
    }
}

/// A foe the tool in hand cannot reach still shows, on the lines layer, the cover it has
/// from the actor where it stands; a foe in reach shows the attack's own lines instead.
#[test]
fn a_foe_out_of_reach_shows_the_cover_it_has_from_here() {
    let units = vec![unit("knight", "blue", (1, 3), "veteran"), unit("gob", "red", (7, 3), "goblin")];
    let l = level(&OPEN, units, RulesVariant::D20Classic);
    let b = acting(
        BattleWorld::new(&l, &Catalogue::builtin(), RulesVariant::D20Classic, 2, BattleOptions::default()),
        "knight",
    );
    let sel = Selection { unit: b.index_of("knight"), tool: Tool::Attack };
    let p = compute_preview(&b, &["blue".to_string()], &sel, Some(GridPos::new(7, 3)), Layers::default());
    assert!(p.attack.is_none() && p.refusal.is_some(), "30 ft away: no attack from here");
    let (t, cover) = p.far_cover.expect("the cover from here");
    assert_eq!(t, b.index_of("gob").unwrap());
    assert!(!cover.lines.is_empty() && cover.cover == fivefoot::rules::CoverKind::None, "{cover:?}");
    // In reach, the attack's own lines: nothing drawn twice.
    let sel = Selection { unit: b.index_of("knight"), tool: Tool::Charge };
    let p = compute_preview(&b, &["blue".to_string()], &sel, Some(GridPos::new(7, 3)), Layers::default());
    assert!(p.attack.is_some() && p.far_cover.is_none());
}

/// A charge's preview shows the attack as it will be rolled from where the charge ends:
/// four-actions lists its +2, d20-classic's source gives none (the HUD says so).
#[test]
fn the_charge_preview_shows_the_attack_from_the_end_of_the_charge() {
    for (v, bonus) in [(RulesVariant::D20Classic, None), (RulesVariant::FourActions, Some(2))] {
        let units = vec![unit("knight", "blue", (1, 3), "veteran"), unit("gob", "red", (7, 3), "goblin")];
        let l = level(&OPEN, units, v);
        let b = acting(BattleWorld::new(&l, &Catalogue::builtin(), v, 2, BattleOptions::default()), "knight");
        let sel = Selection { unit: b.index_of("knight"), tool: Tool::Charge };
        let p = compute_preview(&b, &["blue".to_string()], &sel, Some(GridPos::new(7, 3)), Layers::default());
        let path = p.path.as_ref().expect("the charge's path");
        assert_eq!(path.squares.last(), Some(&GridPos::new(6, 3)), "{v}");
        let attack = p.attack.expect("the charge's attack");
        assert!(attack.profile.legal && attack.profile.hit_chance > 0.0, "{v}");
        let charge = attack.profile.modifiers.iter().find(|m| m.source == "charge").map(|m| m.value);
        assert_eq!(charge, bonus, "{v}: {:?}", attack.profile.modifiers);
        // The lines agree with the terms: drawn from the square where the charge ends.
        assert_eq!(attack.from.origin, GridPos::new(6, 3), "{v}");
        assert!(!attack.cover.lines.is_empty(), "{v}: cover lines to look at");
        for line in &attack.cover.lines {
            assert!((6.0..=7.0).contains(&line.from[0]), "{v}: a line from the charger's old square: {line:?}");
        }
    }
}
