//! The side panel's per-variant table: the attack or the walk being aimed, as every variant
//! would have it from where the units stand now (`compare::action`): chance to hit and to
//! land a critical, expected damage, the attacks of opportunity it draws and their expected
//! damage, the feet a walk costs, whether the target could strike back at once, and what it
//! takes of a fresh turn's actions.

use crate::combat::plugin::BattleRes;
use crate::compare::action::{ActionRow, Mirrors};
use crate::game::{GameSetup, Screen};
use crate::level::{Catalogue, Level};
use crate::overlay::Preview;
use bevy::prelude::*;
use bevy_egui::egui;

/// The table for the action aimed now, and the mirrors that work it out.
#[derive(Resource, Default)]
pub struct VariantTable {
    mirrors: Option<Mirrors>,
    /// What the rows answer: the battle's length of log and the action, so they are worked
    /// out again only when either changes.
    key: Option<(usize, String)>,
    pub title: String,
    pub rows: Vec<ActionRow>,
}

pub struct VariantTablePlugin;

impl Plugin for VariantTablePlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<VariantTable>()
            .add_systems(OnEnter(Screen::Skirmish), set_up_mirrors.after(crate::game::SkirmishSetup))
            .add_systems(Update, fill_table.after(crate::rules::RulesSet::Derive).run_if(in_state(Screen::Skirmish)));
    }
}

/// A mirror per variant of the skirmish's level, with its house rules.
fn set_up_mirrors(setup: Option<Res<GameSetup>>, res: Option<Res<BattleRes>>, mut table: ResMut<VariantTable>) {
    *table = VariantTable::default();
    let (Some(setup), Some(res)) = (setup, res) else { return };
    let catalogue = Catalogue::builtin();
    if let Ok(level) = Level::load(&setup.level, &catalogue) {
        table.mirrors = Some(Mirrors::new(&level, &catalogue, res.battle.house_rules()));
    }
}

/// Works the rows out for the attack or walk aimed now.
fn fill_table(preview: Res<Preview>, res: Option<Res<BattleRes>>, mut table: ResMut<VariantTable>) {
    let Some(res) = res else { return };
    let b = res.battle.read();
    let aimed = match (&preview.attack, &preview.path) {
        (Some(a), _) => {
            let who = format!("{} -> {}", b.fighters.at(a.attacker).id(), b.fighters.at(a.target).id());
            use crate::combat::Command;
            let attack = Aim::Attack(a.attacker, a.target);
            // A full attack (or any other strike) is tabled as the one attack each variant
            // would make: the title says so rather than name the command aimed.
            Some(match a.command {
                Command::Charge { .. } => (format!("charge {who}"), Aim::Charge(a.attacker, a.target)),
                Command::Attack { .. } => (format!("attack {who}"), attack),
                Command::FullAttack { .. } => (format!("{who}, one attack (the full attack's first)"), attack),
                _ => (format!("{who}, a plain attack (for the {} aimed)", a.command.name()), attack),
            })
        }
        (None, Some(p)) => {
            let mover = b.actor();
            match (mover, p.squares.last()) {
                (Some(m), Some(&to)) => Some((
                    format!("{} {} to ({}, {})", p.command.name(), b.fighters.at(m).id(), to.x, to.y),
                    Aim::Walk(m, to),
                )),
                _ => None,
            }
        }
        _ => None,
    };
    let Some((title, aim)) = aimed else {
        table.key = None;
        table.rows.clear();
        return;
    };
    let key = Some((res.battle.events().len(), title.clone()));
    if table.key == key {
        return;
    }
    let table = &mut *table;
    let Some(mirrors) = table.mirrors.as_mut() else { return };
    table.rows = match aim {
        Aim::Attack(a, t) => mirrors.attack(&b, a, t),
        Aim::Charge(a, t) => mirrors.charge(&b, a, t),
        Aim::Walk(m, to) => mirrors.walk(&b, m, to),
    };
    table.title = title;
    table.key = key;
}

enum Aim {
    Attack(usize, usize),
    Charge(usize, usize),
    Walk(usize, crate::grid::GridPos),
}

/// The table, a row per variant, the battle's own marked: the numbers in a grid narrow
/// enough for the panel, then what each variant's action costs, or why it refuses it, in
/// words that wrap (readable without hovering).
pub fn show(ui: &mut egui::Ui, table: &VariantTable, current: crate::variants::RulesVariant) {
    if table.rows.is_empty() {
        return;
    }
    ui.separator();
    ui.strong(format!("Under each variant: {}", table.title));
    let attack = table.rows.iter().any(|r| r.odds.is_some());
    let name = |row: &ActionRow| {
        let name = egui::RichText::new(row.variant.id());
        if row.variant == current { name.strong() } else { name }
    };
    egui::Grid::new("variants").striped(true).show(ui, |ui| {
        ui.label("");
        let heads: &[&str] = if attack { &["hit", "crit", "dmg", "AoO (dmg)", "reply"] } else { &["ft", "AoO (dmg)"] };
        for head in heads {
            ui.weak(*head).on_hover_text(match *head {
                "dmg" => "expected damage of the attack, misses counted as nothing",
                "AoO (dmg)" => "attacks of opportunity it draws, and their expected damage together",
                "reply" => "whether the target still has a reaction to answer with",
                _ => "",
            });
        }
        ui.end_row();
        for row in &table.rows {
            ui.label(name(row));
            if row.refused.is_some() {
                ui.label("—");
                ui.end_row();
                continue;
            }
            if let Some(o) = row.odds {
                ui.label(format!("{:.0}%", o.hit * 100.0));
                ui.label(format!("{:.1}%", o.critical * 100.0));
                ui.label(format!("{:.1}", o.expected_damage));
            }
            if let Some(ft) = row.feet {
                ui.label(ft.to_string());
            }
            ui.label(match row.provoked {
                0 => "none".to_string(),
                n => format!("{n} ({:.1})", row.provoked_damage),
            });
            if let Some(reply) = row.reply {
                ui.label(if reply { "yes" } else { "no" });
            }
            ui.end_row();
        }
    });
    // What it takes of a fresh turn, or why not: a line each, wrapped to the panel.
    for row in &table.rows {
        let said = match &row.refused {
            Some(why) => format!(": not here: {why}"),
            None => format!(" costs {}", row.cost),
        };
        ui.horizontal_wrapped(|ui| {
            ui.spacing_mut().item_spacing.x = 0.0;
            ui.label(name(row));
            ui.label(egui::RichText::new(said).weak());
        });
    }
}
