//! What a command would provoke, asked of the rules themselves: the command is resolved on
//! a fork of the battle (its snapshot restored in a scratch world) in which every attack of opportunity it draws is noted instead of
//! rolled, so the answer covers every way a variant lets an action provoke (moving out of
//! a threatened square, firing or casting in melee, reloading, standing up, a maneuver, a
//! complex action…) without a list kept beside the rules.

use super::battle::Provoked;
use super::command::Command;

impl super::BattleWorld {
    /// The attacks of opportunity `cmd` would draw from the acting fighter now, each foe
    /// once (its first occasion), in the order they would come. Empty when the command is
    /// not legal. The battle itself is left as it was.
    pub fn provocations(&self, cmd: &Command) -> Vec<Provoked> {
        if self.validate(cmd).is_err() {
            return vec![];
        }
        let mut copy = self.fork(true);
        *copy.scene().foreseen() = Some(vec![]);
        let _ = copy.execute(cmd.clone());
        let mut seen: Vec<Provoked> = vec![];
        for p in copy.scene().foreseen().take().unwrap_or_default() {
            if !seen.iter().any(|s| s.by == p.by) {
                seen.push(p);
            }
        }
        seen
    }
}
