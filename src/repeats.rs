//! Finding repeated keys in a list: duplicate JSON keys, duplicate entity ids.

use std::collections::hash_map::Entry;
use std::collections::HashMap;

/// Lists of up to this length are searched pairwise: payload objects and entity
/// lists are a handful long, where comparing beats hashing.
const PAIRWISE_UP_TO: usize = 16;

/// `(index, first)` for every item whose key an earlier item already had, `first`
/// being the index of the earliest one, in list order. Allocates only for repeats
/// or long lists.
pub fn repeats<'a, T>(items: &'a [T], key: impl Fn(&'a T) -> &'a str) -> Vec<(usize, usize)> {
    let mut found = Vec::new();
    if items.len() <= PAIRWISE_UP_TO {
        for (index, item) in items.iter().enumerate() {
            let wanted = key(item);
            if let Some(first) = items[..index]
                .iter()
                .position(|earlier| key(earlier) == wanted)
            {
                found.push((index, first));
            }
        }
    } else {
        let mut first_of: HashMap<&str, usize> = HashMap::with_capacity(items.len());
        for (index, item) in items.iter().enumerate() {
            match first_of.entry(key(item)) {
                Entry::Occupied(first) => found.push((index, *first.get())),
                Entry::Vacant(slot) => {
                    slot.insert(index);
                }
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::repeats;

    #[test]
    fn short_and_long_lists_agree() {
        let short = ["a", "b", "a", "c", "b", "a"];
        assert_eq!(repeats(&short, |s| s), vec![(2, 0), (4, 1), (5, 0)]);
        let long: Vec<String> = (0..100).map(|i| (i % 40).to_string()).collect();
        let found = repeats(&long, |s| s.as_str());
        assert_eq!(found.len(), 60);
        assert_eq!(found[0], (40, 0));
        assert_eq!(found[59], (99, 19));
        assert!(repeats::<&str>(&[], |s| s).is_empty());
    }
}
