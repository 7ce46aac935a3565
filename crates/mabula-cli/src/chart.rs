//! The evaluation graph of `mabula analyze --chart` drawn as text for the terminal (the values
//! come from `mabula_engine::annotate::white_values`).

use mabula_engine::annotate::{Judgement, Note};

/// The evaluation graph as text: one column per position (the start, then after each move), the
/// value for White from 100% (top) to 0% (bottom) over `height` rows with the even line dotted;
/// below it, `B` under blunders and `m` under mistakes, and the move numbers every fifth column.
pub fn chart(values: &[f64], notes: &[Note], height: usize) -> String {
    let height = height.max(3) | 1; // odd, so that 50% has a row
    let row_of = |v: f64| {
        let v = if v.is_finite() {
            v.clamp(0.0, 1.0)
        } else {
            0.5
        };
        ((1.0 - v) * (height - 1) as f64).round() as usize
    };
    let mid = (height - 1) / 2;
    let mut out = String::new();
    for row in 0..height {
        let label = match row {
            0 => "100%",
            r if r == mid => " 50%",
            r if r == height - 1 => "  0%",
            _ => "    ",
        };
        out.push_str(label);
        out.push_str(" |");
        for &v in values {
            let r = row_of(v);
            let c = if r == row {
                '*'
            } else if row == mid {
                '.'
            } else {
                ' '
            };
            out.push(c);
            out.push(' ');
        }
        out.push('\n');
    }
    out.push_str("     +");
    out.push_str(&"--".repeat(values.len()));
    out.push('\n');
    out.push_str("      ");
    for i in 0..values.len() {
        // Column i shows the position after move i; the mark of move i goes under it.
        let mark = i
            .checked_sub(1)
            .and_then(|m| notes.iter().find(|n| n.index == m))
            .map_or(' ', |n| match n.judgement {
                Judgement::Blunder => 'B',
                Judgement::Mistake => 'm',
                _ => ' ',
            });
        out.push(mark);
        out.push(' ');
    }
    out = out.trim_end_matches(' ').to_string();
    out.push('\n');
    out.push_str("      ");
    let mut col = 0;
    let mut numbers = String::new();
    while col < values.len() {
        let target = col * 2;
        while numbers.len() < target {
            numbers.push(' ');
        }
        numbers.push_str(&col.to_string());
        col += 5;
    }
    out.push_str(&numbers);
    out.push('\n');
    out.push_str("      (value for White after each move; B blunder, m mistake)\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chart_has_a_column_per_position() {
        let values = [0.5, 0.6, 0.9, 0.2, 0.0];
        let text = chart(&values, &[], 9);
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("100% |"));
        assert_eq!(lines[8].matches('*').count(), 1, "{text}");
        assert_eq!(text.matches('*').count(), values.len(), "{text}");
    }
}
