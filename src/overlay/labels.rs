//! Where the board's preview labels go: each as near as it can be to where it is wanted,
//! clear of every label placed before it and of every token's name, moved a line at a time
//! away from the token it would cover (down, then up).

use bevy::math::{Rect, Vec2};

/// A label's box for text of `chars` characters at `font` pixels, centred on `at`
/// (roughly 0.55 em a character, 1.2 em a line).
pub fn text_box(at: Vec2, chars: usize, font: f32) -> Rect {
    Rect::from_center_size(at, Vec2::new(chars as f32 * font * 0.55, font * 1.2))
}

/// Places labels clear of `names` (the tokens' name boxes) and of each other.
#[derive(Default)]
pub struct LabelPlacer {
    taken: Vec<Rect>,
}

impl LabelPlacer {
    pub fn new(names: impl IntoIterator<Item = Rect>) -> LabelPlacer {
        LabelPlacer { taken: names.into_iter().collect() }
    }

    /// The centre for a label of `size` wanted at `at`: the first of `at`, a line lower,
    /// a line higher, two lines lower… that overlaps nothing placed so far (or `at` itself,
    /// after 40 tries); the label's box is then taken.
    pub fn place(&mut self, at: Vec2, size: Vec2) -> Vec2 {
        let step = size.y;
        let tries = (0..40).map(|k| {
            let lines = ((k + 1) / 2) as f32;
            if k % 2 == 1 { at - Vec2::new(0.0, step * lines) } else { at + Vec2::new(0.0, step * lines) }
        });
        let free = |c: Vec2| {
            let r = Rect::from_center_size(c, size);
            self.taken.iter().all(|t| t.intersect(r).is_empty())
        };
        let spot = tries.clone().find(|&c| free(c)).unwrap_or(at);
        self.taken.push(Rect::from_center_size(spot, size));
        spot
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn overlaps(a: Rect, b: Rect) -> bool {
        !a.intersect(b).is_empty()
    }

    #[test]
    fn labels_on_one_square_stack_clear_of_each_other_and_of_the_token_name() {
        let name = text_box(Vec2::ZERO, 8, 12.0); // "sergeant" on its token
        let mut placer = LabelPlacer::new([name]);
        let size = text_box(Vec2::ZERO, 10, 15.0).size(); // "AoO: gob_b"
        let wanted = Vec2::new(0.0, -4.0); // just below the token's centre
        let spots: Vec<Rect> = (0..3).map(|_| Rect::from_center_size(placer.place(wanted, size), size)).collect();
        for (i, a) in spots.iter().enumerate() {
            assert!(!overlaps(*a, name), "label {i} covers the name");
            for b in &spots[i + 1..] {
                assert!(!overlaps(*a, *b), "two labels overlap: {a:?} {b:?}");
            }
        }
        // A label wanted where nothing is stays there.
        let far = Vec2::new(500.0, 500.0);
        assert_eq!(placer.place(far, size), far);
    }
}
