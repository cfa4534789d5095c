//! The unit edits: placing, moving, changing and removing a unit, each together with its
//! mirror partner under the document's symmetry. A placed unit's mirror image goes to the
//! level's other side, as a generated level's does, so a symmetric level stays fair; the
//! pair then moves, changes and leaves together, in one undo step.

use super::edit::{Edit, size_of};
use crate::grid::{Footprint, Shape, Terrain};
use crate::level::generate::Symmetry;
use crate::level::{Catalogue, LevelDef, UnitDef};

/// The map the unit edits work on: its terrain grid, size, shape and the symmetry in force.
pub(super) struct Board<'a> {
    pub grid: &'a [Vec<Terrain>],
    pub w: i32,
    pub h: i32,
    pub shape: Shape,
    pub symmetry: Symmetry,
}

impl Board<'_> {
    /// Where a `side` × `side` footprint at `at` has its mirror image, if it has one other
    /// than itself.
    fn image(&self, at: (i32, i32), side: i32) -> Option<(i32, i32)> {
        self.symmetry.mirror_footprint(at, side, self.w, self.h, self.shape).filter(|&m| m != at)
    }

    fn in_mirror(&self, e: String) -> String {
        format!("its mirror image under {} symmetry: {e}", self.symmetry.label())
    }
}

/// The side a mirror image of a `side` unit joins: the level's first other side (by its
/// units, then its side list); on a level with no other side yet, `red` for `blue` and
/// `blue` for anything else.
pub fn other_side(level: &LevelDef, side: &str) -> String {
    let named = level.units.iter().map(|u| u.side.as_str()).chain(level.sides.iter().map(|s| s.name.as_str()));
    let first_other = named.into_iter().find(|s| *s != side);
    first_other.map_or_else(|| if side == "blue" { "red".into() } else { "blue".into() }, str::to_string)
}

/// The id of `id`'s mirror image on `to` (from `from`): an id carrying its side's initial
/// as a prefix (`b_fighter` on blue) takes the other side's (`r_fighter`); any other id
/// takes the side as a suffix (`fighter_red`).
pub fn mirror_id(id: &str, from: &str, to: &str) -> String {
    let initial = |s: &str| s.chars().next().map(|c| c.to_ascii_lowercase());
    let mut parts = id.splitn(2, '_');
    match (parts.next(), parts.next(), initial(from), initial(to)) {
        (Some(prefix), Some(rest), Some(f), Some(t))
            if prefix.len() == 1 && prefix.starts_with(f) && !rest.is_empty() =>
        {
            format!("{t}_{rest}")
        }
        _ => format!("{id}_{to}"),
    }
}

/// The unit standing as unit `i`'s mirror image under `symmetry`: the same creature at the
/// image of its footprint. `None` under no symmetry, for a unit that is its own image, or
/// when nobody stands there.
pub fn partner(level: &LevelDef, i: usize, symmetry: Symmetry, shape: Shape, catalogue: &Catalogue) -> Option<usize> {
    let u = level.units.get(i)?;
    let (h, w) = (level.map.rows.len() as i32, level.map.rows.first().map_or(0, |r| r.chars().count()) as i32);
    let image = symmetry.mirror_footprint(u.at, size_of(u, catalogue).side(), w, h, shape).filter(|&m| m != u.at)?;
    level.units.iter().enumerate().position(|(j, o)| j != i && o.at == image && o.creature == u.creature)
}

/// Applies a unit edit (place, move, change, remove); other edits are not for here.
pub(super) fn apply(level: &mut LevelDef, board: &Board, edit: &Edit, catalogue: &Catalogue) -> Result<(), String> {
    match edit {
        Edit::PlaceUnit { id, creature, side, at, weapon } => {
            let unit =
                UnitDef { weapon: weapon.clone(), ..UnitDef::new(id.clone(), side.clone(), *at, creature.clone()) };
            place(level, board, unit, catalogue)
        }
        Edit::MoveUnit { id, to } => move_to(level, board, id, *to, catalogue),
        Edit::ChangeUnit { id, creature, side, weapon } => {
            change(level, board, id, (creature, side, weapon.as_ref()), catalogue)
        }
        Edit::RemoveUnit { id } => remove(level, board, id, catalogue),
        _ => Err(format!("{edit:?} is not a unit edit")),
    }
}

/// Places a unit, and under a symmetry its mirror image on the other side.
fn place(level: &mut LevelDef, board: &Board, unit: UnitDef, catalogue: &Catalogue) -> Result<(), String> {
    let across = catalogue.creature(&unit.creature).map_or(1, |c| c.size.side());
    let image = match board.symmetry {
        Symmetry::None => None,
        _ => Some(
            board
                .symmetry
                .mirror_footprint(unit.at, across, board.w, board.h, board.shape)
                .ok_or_else(|| board.in_mirror("it falls off the map".into()))?,
        ),
    };
    let unit = UnitDef { id: unique_id(level, unit.id.clone()), ..unit };
    check_unit(level, board.grid, &unit, catalogue, &[])?;
    let mirror = image.filter(|&m| m != unit.at).map(|at| {
        let side = other_side(level, &unit.side);
        UnitDef { id: mirror_id(&unit.id, &unit.side, &side), at, side, ..unit.clone() }
    });
    level.units.push(unit);
    if let Some(mirror) = mirror {
        let mirror = UnitDef { id: unique_id(level, mirror.id.clone()), ..mirror };
        check_unit(level, board.grid, &mirror, catalogue, &[]).map_err(|e| board.in_mirror(e))?;
        level.units.push(mirror);
    }
    Ok(())
}

/// Moves unit `id` to `to`, and its mirror partner to the image of `to`.
fn move_to(level: &mut LevelDef, board: &Board, id: &str, to: (i32, i32), catalogue: &Catalogue) -> Result<(), String> {
    let i = index(level, id)?;
    let j = partner(level, i, board.symmetry, board.shape, catalogue);
    let across = size_of(&level.units[i], catalogue).side();
    level.units[i].at = to;
    if let Some(j) = j {
        level.units[j].at =
            board.image(to, across).ok_or_else(|| board.in_mirror("it would fall off the map".into()))?;
    }
    check_pair(level, board, i, j, catalogue)
}

/// Gives unit `id` a new creature, side and weapon; its mirror partner takes the same
/// creature and weapon (keeping its side) and stands at the image of the changed footprint.
fn change(
    level: &mut LevelDef,
    board: &Board,
    id: &str,
    (creature, side, weapon): (&str, &str, Option<&String>),
    catalogue: &Catalogue,
) -> Result<(), String> {
    let i = index(level, id)?;
    if side.trim().is_empty() {
        return Err(format!("{id} needs a side"));
    }
    let j = partner(level, i, board.symmetry, board.shape, catalogue);
    let u = &mut level.units[i];
    (u.creature, u.side, u.weapon) = (creature.into(), side.into(), weapon.cloned());
    let (at, across) = (u.at, size_of(u, catalogue).side());
    if let Some(j) = j {
        let image = board.image(at, across).ok_or_else(|| board.in_mirror("it would fall off the map".into()))?;
        let p = &mut level.units[j];
        (p.creature, p.weapon, p.at) = (creature.into(), weapon.cloned(), image);
    }
    check_pair(level, board, i, j, catalogue)
}

/// Removes unit `id` and its mirror partner.
fn remove(level: &mut LevelDef, board: &Board, id: &str, catalogue: &Catalogue) -> Result<(), String> {
    let i = index(level, id)?;
    let j = partner(level, i, board.symmetry, board.shape, catalogue);
    let mut gone = vec![i];
    gone.extend(j);
    gone.sort_unstable();
    for k in gone.into_iter().rev() {
        level.units.remove(k);
    }
    Ok(())
}

fn index(level: &LevelDef, id: &str) -> Result<usize, String> {
    level.units.iter().position(|u| u.id == id).ok_or_else(|| format!("no unit \"{id}\""))
}

/// Checks unit `i` and its partner `j` where they now stand, each clear of the other.
fn check_pair(
    level: &LevelDef,
    board: &Board,
    i: usize,
    j: Option<usize>,
    catalogue: &Catalogue,
) -> Result<(), String> {
    check_unit(level, board.grid, &level.units[i], catalogue, &[i])?;
    if let Some(j) = j {
        check_unit(level, board.grid, &level.units[j], catalogue, &[j]).map_err(|e| board.in_mirror(e))?;
    }
    Ok(())
}

/// `id`, or `id_2`, `id_3`… if a unit already has it.
pub(super) fn unique_id(level: &LevelDef, id: String) -> String {
    let taken = |s: &str| level.units.iter().any(|u| u.id == s);
    if !taken(&id) {
        return id;
    }
    (2..).map(|n| format!("{id}_{n}")).find(|s| !taken(s)).unwrap_or(id)
}

/// Whether `unit` can stand where it is: a known creature and weapon, inside the map, off
/// walls, clear of every other unit (but those at `except`, itself when it is one of them).
pub(super) fn check_unit(
    level: &LevelDef,
    g: &[Vec<Terrain>],
    unit: &UnitDef,
    catalogue: &Catalogue,
    except: &[usize],
) -> Result<(), String> {
    if catalogue.creature(&unit.creature).is_none() {
        return Err(format!("unknown creature \"{}\"", unit.creature));
    }
    if let Some(w) = &unit.weapon
        && catalogue.weapon(w).is_none()
    {
        return Err(format!("unknown weapon \"{w}\""));
    }
    let fp = Footprint::new(unit.pos(), size_of(unit, catalogue).side());
    for c in fp.cells() {
        match g.get(c.y.max(-1) as usize).and_then(|row| row.get(c.x.max(-1) as usize)) {
            _ if c.x < 0 || c.y < 0 => return Err(format!("{} is outside the map", unit.id)),
            None => return Err(format!("{} is outside the map at {c}", unit.id)),
            Some(Terrain::Wall) => return Err(format!("{} would stand on a wall at {c}", unit.id)),
            Some(_) => {}
        }
    }
    for (j, other) in level.units.iter().enumerate() {
        if !except.contains(&j) && Footprint::new(other.pos(), size_of(other, catalogue).side()).overlaps(&fp) {
            return Err(format!("{} would overlap unit \"{}\"", unit.id, other.id));
        }
    }
    Ok(())
}
