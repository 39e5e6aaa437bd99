//! Where the 3D view's labels go on screen. Labels sit just above their anchor point; two
//! anchors close together (a feature and the EPA normal at one spot) stacked their labels
//! into one unreadable box. Each label, in the order given (the emphasised one first), takes
//! the nearest free slot above or below its anchor; a moved label gets a leader line back.

use egui::{Rect, Vec2};

/// How many label heights a label may move to find a free slot, each way.
const MAX_SHIFT: i32 = 3;

/// The rect each label takes, in the order given: `wanted` moved up or down by whole label
/// heights to the nearest place that overlaps no earlier label and stays inside `bounds`;
/// where no such place is near, the wanted one (an overlap beats a label far from its point).
pub fn place_labels(wanted: &[Rect], bounds: Rect) -> Vec<Rect> {
    let mut placed: Vec<Rect> = Vec::with_capacity(wanted.len());
    for &rect in wanted {
        let step = rect.height() + 1.0;
        let free = |r: &Rect| bounds.contains_rect(*r) && placed.iter().all(|p| !p.intersects(*r));
        let shifts = (0..=MAX_SHIFT).flat_map(|k| [-k, k]).skip(1);
        let chosen = shifts
            .map(|k| rect.translate(Vec2::new(0.0, k as f32 * step)))
            .find(free)
            .unwrap_or(rect);
        placed.push(chosen);
    }
    placed
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui::Pos2;

    fn label(x: f32, y: f32) -> Rect {
        Rect::from_min_size(Pos2::new(x, y), Vec2::new(80.0, 16.0))
    }

    fn screen() -> Rect {
        Rect::from_min_size(Pos2::ZERO, Vec2::new(800.0, 600.0))
    }

    /// Brute force: no two placed labels overlap whenever every label found room.
    #[test]
    fn stacked_labels_spread_apart_and_the_first_stays() {
        let wanted = vec![label(100.0, 100.0); 5];
        let placed = place_labels(&wanted, screen());
        assert_eq!(placed[0], wanted[0], "the emphasised label keeps its place");
        for (i, a) in placed.iter().enumerate() {
            for b in &placed[i + 1..] {
                assert!(!a.intersects(*b), "{a:?} overlaps {b:?}");
            }
            assert!(
                (a.center().y - 108.0).abs() <= 3.0 * 17.0 + 1e-3,
                "{a:?} strayed"
            );
        }
    }

    #[test]
    fn labels_apart_already_do_not_move() {
        let wanted = vec![label(10.0, 10.0), label(300.0, 10.0), label(10.0, 300.0)];
        assert_eq!(place_labels(&wanted, screen()), wanted);
    }

    /// At the top edge a label cannot go up; it goes down. With no room anywhere near it
    /// keeps its wanted place.
    #[test]
    fn labels_stay_on_screen_and_fall_back_to_their_place() {
        let wanted = vec![label(10.0, 0.0), label(10.0, 0.0)];
        let placed = place_labels(&wanted, screen());
        assert!(placed[1].min.y > placed[0].max.y, "{placed:?}");
        let crowded = vec![label(10.0, 100.0); 9];
        let placed = place_labels(&crowded, screen());
        assert_eq!(
            placed[8], crowded[8],
            "no slot within three heights: its own place"
        );
        assert!(placed.iter().all(|r| screen().contains_rect(*r)));
    }
}
