//! How clift divides a work-group into sub-groups, shared by generated
//! code (the sub-group built-ins and collectives, `lower::builtins`,
//! `lower::collective`), the device's limits and clGetKernelSubGroupInfo
//! (in the runtime).
//!
//! Sub-group `k` of a work-group of `n` work-items holds the work-items of
//! local linear ids `k * SIZE` to `min((k + 1) * SIZE, n) - 1`, in that
//! order (its local ids 0, 1, ...): every sub-group has [`SIZE`]
//! work-items but the last, which holds the rest. Why [`SIZE`] is 8 is in
//! ARCHITECTURE.md ("Sub-groups").

/// The number of work-items of every sub-group but a work-group's last.
/// A multiple of the 4-lane bodies' chunk (`lower::simd::LANES`), so a
/// chunk of a row whose size is a multiple of 4 never straddles two
/// sub-groups.
pub const SIZE: u64 = 8;

/// The number of sub-groups of a work-group of `items` work-items.
pub fn count(items: u64) -> u64 {
    items.div_ceil(SIZE)
}

/// The largest sub-group of a work-group of `items` work-items (0 for an
/// empty one).
pub fn max_size(items: u64) -> u64 {
    items.min(SIZE)
}

/// The work-group sizes (1 to `max_items` work-items) that hold exactly
/// `sub_groups` sub-groups: the largest of them, or None when no size has
/// that many.
pub fn largest_local_size_for(sub_groups: u64, max_items: u64) -> Option<u64> {
    if sub_groups == 0 {
        return None;
    }
    let lowest = (sub_groups - 1).checked_mul(SIZE)?.checked_add(1)?;
    let highest = sub_groups.checked_mul(SIZE)?.min(max_items);
    (lowest <= highest).then_some(highest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sub_groups_split_a_work_group_in_eights() {
        assert_eq!((count(0), count(1), count(8), count(9), count(4096)), (0, 1, 1, 2, 512));
        assert_eq!((max_size(0), max_size(5), max_size(8), max_size(100)), (0, 5, 8, 8));
        assert_eq!(largest_local_size_for(1, 4096), Some(8));
        assert_eq!(largest_local_size_for(3, 4096), Some(24));
        assert_eq!(largest_local_size_for(3, 20), Some(20));
        assert_eq!(largest_local_size_for(3, 16), None);
        assert_eq!(largest_local_size_for(0, 4096), None);
        assert_eq!(largest_local_size_for(u64::MAX, 4096), None);
        assert_eq!(largest_local_size_for(512, 4096), Some(4096));
        assert_eq!(largest_local_size_for(513, 4096), None);
    }
}
