//! Tables computed at compile time: the edge spaces and their lines, the result of every push,
//! and the Zobrist keys.
//!
//! A *line* is one of the 12 rows or columns of six field squares. Its contents are read out of a
//! bitboard as a 6-bit mask in *natural* order (bit 0 is the `b` square of a rank or the rank-2
//! square of a file), then folded into a base-3 number (0 empty, 1 white, 2 black) that indexes
//! [`PUSH`]. A push from the `a` file or rank 1 travels with the natural order; one from the `h`
//! file or rank 8 travels against it ("reversed").

/// An edge space, as the start of a push.
#[derive(Copy, Clone)]
pub(crate) struct Edge {
    /// Index of the edge space's square.
    pub sq: u8,
    /// The line it pushes into, 0..12: files `b`..`g` are 0..6, ranks 2..7 are 6..12.
    pub line: u8,
    /// Whether the push runs against the natural order of the line.
    pub reversed: bool,
}

/// The 24 edge spaces in the alphabetical order of their names (`a2`..`a7`, `b1`, `b8`, `c1`,
/// ..., `g8`, `h2`..`h7`). A move's code is `edge * 6 + slot`, so the codes sort like the
/// notation strings.
pub(crate) const EDGES: [Edge; 24] = {
    let mut out = [Edge {
        sq: 0,
        line: 0,
        reversed: false,
    }; 24];
    let mut i = 0;
    // a-file: a2..a7, pushing right along ranks 2..7.
    while i < 6 {
        out[i] = Edge {
            sq: (i as u8 + 1) * 8,
            line: 6 + i as u8,
            reversed: false,
        };
        i += 1;
    }
    // Files b..g: rank 1 then rank 8.
    let mut f = 1;
    while f <= 6 {
        out[i] = Edge {
            sq: f,
            line: f - 1,
            reversed: false,
        };
        out[i + 1] = Edge {
            sq: 56 + f,
            line: f - 1,
            reversed: true,
        };
        i += 2;
        f += 1;
    }
    // h-file: h2..h7, pushing left.
    let mut r = 1;
    while r <= 6 {
        out[i] = Edge {
            sq: r * 8 + 7,
            line: 5 + r,
            reversed: true,
        };
        i += 1;
        r += 1;
    }
    out
};

/// For each square, its index in [`EDGES`], or `NONE` if it is no edge space.
pub(crate) const EDGE_OF: [u8; 64] = {
    let mut out = [NONE; 64];
    let mut i = 0;
    while i < 24 {
        out[EDGES[i].sq as usize] = i as u8;
        i += 1;
    }
    out
};

/// Marks "none" in small index tables.
pub(crate) const NONE: u8 = u8::MAX;

/// The six field squares of each line, as a bitboard mask.
pub(crate) const LINE_MASK: [u64; 12] = {
    let mut out = [0u64; 12];
    let mut l = 0;
    while l < 12 {
        let mut n = 0;
        while n < 6 {
            out[l] |= 1 << line_square(l as u8, n);
            n += 1;
        }
        l += 1;
    }
    out
};

/// The square index of bit `n` (natural order) of line `line`.
pub(crate) const fn line_square(line: u8, n: u8) -> u8 {
    if line < 6 {
        (n + 1) * 8 + line + 1
    } else {
        (line - 5) * 8 + n + 1
    }
}

/// Multiplier that gathers the bits 0, 8, .., 40 of a word into bits 56..61.
const GATHER: u64 = (1 << 56) | (1 << 49) | (1 << 42) | (1 << 35) | (1 << 28) | (1 << 21);

/// The contents of `line` in `bb`, as a 6-bit mask in natural order.
#[inline(always)]
pub(crate) const fn extract(bb: u64, line: u8) -> u32 {
    if line < 6 {
        (((bb >> (line + 9)) & 0x0000_0101_0101_0101).wrapping_mul(GATHER) >> 56) as u32
    } else {
        ((bb >> ((line - 5) * 8 + 1)) & 63) as u32
    }
}

/// A 6-bit natural-order mask placed back on `line`, as bitboard bits.
#[inline(always)]
pub(crate) const fn deposit(mask: u32, line: u8) -> u64 {
    if line < 6 {
        SPREAD[(mask & 63) as usize] << (line + 9)
    } else {
        (mask as u64) << ((line - 5) * 8 + 1)
    }
}

/// Bit `i` of the index moved to bit `8 * i`.
const SPREAD: [u64; 64] = {
    let mut out = [0u64; 64];
    let mut m = 0;
    while m < 64 {
        let mut i = 0;
        while i < 6 {
            if m >> i & 1 != 0 {
                out[m] |= 1 << (8 * i);
            }
            i += 1;
        }
        m += 1;
    }
    out
};

/// `TERN[m]` is the base-3 number with a 1 in every digit where `m` has a bit.
pub(crate) const TERN: [u16; 64] = {
    let mut out = [0u16; 64];
    let mut m = 0;
    while m < 64 {
        let (mut i, mut p) = (0, 1u16);
        while i < 6 {
            if m >> i & 1 != 0 {
                out[m] += p;
            }
            p *= 3;
            i += 1;
        }
        m += 1;
    }
    out
};

/// Number of different contents of a line: 3^6.
pub(crate) const STATES: usize = 729;

/// The base-3 index of a line holding the white mask `w` and the black mask `b`.
#[inline(always)]
pub(crate) const fn state(w: u32, b: u32) -> usize {
    TERN[(w & 63) as usize] as usize + 2 * TERN[(b & 63) as usize] as usize
}

/// What a push does to a line: `PUSH[(reversed * 6 + d - 1) * STATES + state]` is the line's
/// marbles after a push of distance `d`, without the pushing marble itself, as `white | black
/// << 8` in natural order. Marbles keep their order; those on squares `1..=d` of the push are
/// packed directly ahead of the pusher, and a marble further along moves only as far as the
/// packed chain forces it. Entries of illegal pushes are `u16::MAX`.
pub(crate) static PUSH: [u16; 12 * STATES] = {
    let mut out = [u16::MAX; 12 * STATES];
    let mut rev = 0;
    while rev < 2 {
        let mut s = 0;
        while s < STATES {
            // Cells in the push's own order: cells[0] is the square the pusher enters first.
            let mut cells = [0u8; 6];
            let mut count = 0;
            let (mut n, mut x) = (0, s);
            while n < 6 {
                let at = if rev == 1 { 5 - n } else { n };
                cells[at] = (x % 3) as u8;
                if x % 3 != 0 {
                    count += 1;
                }
                x /= 3;
                n += 1;
            }
            let mut d = 1;
            while d + count <= 6 {
                let mut after = [0u8; 6];
                let mut next = d; // first square (0-based) free ahead of the pusher at d - 1
                let mut i = 0;
                while i < 6 {
                    if cells[i] != 0 {
                        let to = if i < d || i < next { next } else { i };
                        after[to] = cells[i];
                        next = to + 1;
                    }
                    i += 1;
                }
                let (mut w, mut b) = (0u16, 0u16);
                let mut j = 0;
                while j < 6 {
                    let bit = if rev == 1 { 5 - j } else { j };
                    if after[j] == 1 {
                        w |= 1 << bit;
                    } else if after[j] == 2 {
                        b |= 1 << bit;
                    }
                    j += 1;
                }
                out[(rev * 6 + d - 1) * STATES + s] = w | b << 8;
                d += 1;
            }
            s += 1;
        }
        rev += 1;
    }
    out
};

/// One step of SplitMix64, for deriving fixed keys at compile time.
const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (s, z ^ (z >> 31))
}

/// Zobrist keys: `KEYS[colour * 64 + square]`, then the side-to-move key at index 128.
pub(crate) const KEYS: [u64; 129] = {
    let mut out = [0u64; 129];
    let mut state = 0x6d61_6275_6c61_2121; // "mabula!!"
    let mut i = 0;
    while i < 129 {
        let (s, k) = splitmix(state);
        state = s;
        out[i] = k;
        i += 1;
    }
    out
};

/// The key of Black to move.
pub(crate) const BLACK_TO_MOVE: u64 = KEYS[128];

/// Zobrist keys of line contents: `MASK_KEYS[line][colour * 64 + mask]` is the XOR of
/// the keys of a `colour` marble (0 white, 1 black) on every square of `line` that the 6-bit
/// natural-order `mask` names. Zobrist keys combine by XOR, so the change of a push's line is
/// looked up with the mask of the squares that changed: two loads from a 12 KB table.
pub(crate) static MASK_KEYS: [[u64; 128]; 12] = {
    let mut out = [[0u64; 128]; 12];
    let mut l = 0;
    while l < 12 {
        let mut color = 0;
        while color < 2 {
            let mut mask = 0;
            while mask < 64 {
                let mut n = 0;
                while n < 6 {
                    if mask >> n & 1 != 0 {
                        out[l][color * 64 + mask] ^=
                            KEYS[color * 64 + line_square(l as u8, n as u8) as usize];
                    }
                    n += 1;
                }
                mask += 1;
            }
            color += 1;
        }
        l += 1;
    }
    out
};

/// What a push needs to know, precomputed per move code (256 entries, so that any `u8` code
/// indexes it without a bounds check; entries past 143 are unused).
#[derive(Copy, Clone)]
pub(crate) struct PushInfo {
    /// The square index of the edge space the marble leaves.
    pub from: u8,
    /// The line it enters.
    pub line: u8,
    /// The natural-order bit of the square where it stops.
    pub bit: u8,
    /// Where this push's part of [`PUSH`] starts.
    pub table: u16,
}

/// [`PushInfo`] of every move code.
pub(crate) static PUSHES: [PushInfo; 256] = {
    let mut out = [PushInfo {
        from: 0,
        line: 0,
        bit: 0,
        table: 0,
    }; 256];
    let mut code = 0;
    while code < 144 {
        let edge = EDGES[code / 6];
        let slot = code % 6;
        let (d, rev) = if edge.reversed {
            (6 - slot, 1)
        } else {
            (slot + 1, 0)
        };
        out[code] = PushInfo {
            from: edge.sq,
            line: edge.line,
            bit: slot as u8,
            table: ((rev * 6 + d - 1) * STATES) as u16,
        };
        code += 1;
    }
    out
};

/// For each edge space, the code of its first push (`edge * 6`); 0 elsewhere.
pub(crate) const CODE_BASE: [u8; 64] = {
    let mut out = [0u8; 64];
    let mut i = 0;
    while i < 24 {
        out[EDGES[i].sq as usize] = (i * 6) as u8;
        i += 1;
    }
    out
};

/// The edge spaces whose pushes run against the natural order of their line (rank 8, `h` file).
pub(crate) const REVERSED_EDGES: u64 = {
    let mut out = 0u64;
    let mut i = 0;
    while i < 24 {
        if EDGES[i].reversed {
            out |= 1 << EDGES[i].sq;
        }
        i += 1;
    }
    out
};

/// For each square, the field squares of its line if it is an edge space (else 0).
pub(crate) const LINE_OF: [u64; 64] = {
    let mut out = [0u64; 64];
    let mut i = 0;
    while i < 24 {
        out[EDGES[i].sq as usize] = LINE_MASK[EDGES[i].line as usize];
        i += 1;
    }
    out
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extract_and_deposit_are_inverse_on_every_line() {
        for line in 0..12 {
            for m in 0..64u32 {
                let bb = deposit(m, line);
                assert_eq!(bb & !LINE_MASK[line as usize], 0);
                assert_eq!(extract(bb | !LINE_MASK[line as usize], line), m);
            }
        }
    }

    #[test]
    fn every_edge_space_is_listed_once_in_name_order() {
        let names: Vec<String> = EDGES
            .iter()
            .map(|e| crate::Square::from_index(e.sq).expect("square").to_string())
            .collect();
        let mut sorted = names.clone();
        sorted.sort();
        assert_eq!(names, sorted);
        assert_eq!(EDGE_OF.iter().filter(|&&e| e != NONE).count(), 24);
    }
}
