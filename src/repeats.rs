//! Finding repeated keys in a list: duplicate JSON keys, duplicate entity ids.

use std::collections::hash_map::Entry;
use std::collections::HashMap;

/// Lists of up to this length are searched pairwise: payload objects and entity
/// lists are a handful long, where comparing beats hashing.
const PAIRWISE_UP_TO: usize = 16;

/// `(index, first)` for every item whose key an earlier item already had, `first`
/// being the index of the earliest one, in list order; items without a key are
/// passed over. Found as iterated, so a million repeats (one line of a million
/// `start(x)` calls, each entity `act`) are never held in a list; allocates only
/// for long lists.
pub fn repeats<'a, T, K>(
    items: &'a [T],
    key: K,
) -> impl Iterator<Item = (usize, usize)> + use<'a, T, K>
where
    K: Fn(&'a T) -> Option<&'a str>,
{
    let pairwise = items.len() <= PAIRWISE_UP_TO;
    let mut first_of: HashMap<&str, usize> = if pairwise {
        HashMap::new()
    } else {
        HashMap::with_capacity(items.len())
    };
    items.iter().enumerate().filter_map(move |(index, item)| {
        let wanted = key(item)?;
        if pairwise {
            let first = items[..index]
                .iter()
                .position(|earlier| key(earlier) == Some(wanted))?;
            return Some((index, first));
        }
        match first_of.entry(wanted) {
            Entry::Occupied(first) => Some((index, *first.get())),
            Entry::Vacant(slot) => {
                slot.insert(index);
                None
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::repeats as repeats_of;

    fn repeats<'a, T>(
        items: &'a [T],
        key: impl Fn(&'a T) -> Option<&'a str>,
    ) -> Vec<(usize, usize)> {
        repeats_of(items, key).collect()
    }

    #[test]
    fn short_and_long_lists_agree() {
        let short = ["a", "b", "a", "c", "b", "a"];
        assert_eq!(repeats(&short, |s| Some(s)), vec![(2, 0), (4, 1), (5, 0)]);
        let long: Vec<String> = (0..100).map(|i| (i % 40).to_string()).collect();
        let found = repeats(&long, |s| Some(s.as_str()));
        assert_eq!(found.len(), 60);
        assert_eq!(found[0], (40, 0));
        assert_eq!(found[59], (99, 19));
        assert!(repeats::<&str>(&[], |s| Some(s)).is_empty());
    }

    #[test]
    fn items_without_a_key_are_passed_over_in_short_and_long_lists() {
        let short = ["a", "-", "a", "-"];
        let keyed = |s: &&'static str| (*s != "-").then_some(*s);
        assert_eq!(repeats(&short, keyed), vec![(2, 0)]);
        let long: Vec<&str> = (0..40)
            .map(|i| if i % 2 == 0 { "-" } else { "b" })
            .collect();
        let found = repeats(&long, keyed);
        assert_eq!(found.len(), 19);
        assert!(found.iter().all(|&(_, first)| first == 1));
    }
}
