//! Each local worker's share of the CPUs.
//!
//! An app sizes its thread pools to the CPUs it may run on: Blender's TBB takes every
//! core for the parallel parts of an operation (a subdivision, normals, a modifier).
//! Two such apps side by side on every core then each run as many threads as there are
//! cores, and the threads get in each other's way. Measured on the 2-core machine (16
//! items of a subdivision each, `host/BENCHMARKS.md`, "Batches"): 13.7 s with both apps
//! on both cores, 12.8 s with each on a core of its own.
//!
//! So one worker keeps every CPU (its app's parallel parts use them all), and two or
//! more, when there are at least as many CPUs as workers, each get a disjoint share of
//! the CPUs capstan may use (its own affinity mask: a container's or `taskset`'s limits
//! hold), the remainder one more each for the first workers, and a core's hardware
//! threads in one share. With more workers than CPUs there are no shares: the kernel
//! balances.
//!
//! The cost: a share is fixed for the app's life, so when the queue runs dry the CPUs
//! of a worker with nothing left idle while the last items run on their own shares.
//! That tail is at most an item long per worker; a batch of fewer than two items per
//! worker, where the tail is most of the run, gets no shares. `--shared-cpus` turns
//! shares off (also for a machine where other work holds some cores: a worker whose
//! share is busy is slower, and takes fewer items from the queue). A share is not a
//! security boundary; it only places the work.

/// The CPUs each of `workers` workers runs its app on (`None`: every CPU), for a batch
/// of `items` items.
pub fn shares(allowed: &[usize], workers: usize, items: usize) -> Vec<Option<Vec<usize>>> {
    if workers < 2 || workers > allowed.len() || items < 2 * workers {
        return vec![None; workers];
    }
    let (each, extra) = (allowed.len() / workers, allowed.len() % workers);
    let mut rest = allowed;
    (0..workers)
        .map(|n| {
            let (share, after) = rest.split_at(each + usize::from(n < extra));
            rest = after;
            Some(share.to_vec())
        })
        .collect()
}

/// `cpus` with each core's hardware threads side by side (by package, then core), so a
/// contiguous share holds whole cores; `topology` gives a CPU's (package, core), and
/// CPUs it does not know keep their place after the known ones.
pub fn by_core(cpus: &[usize], topology: impl Fn(usize) -> Option<(u32, u32)>) -> Vec<usize> {
    let mut keyed: Vec<(Option<(u32, u32)>, usize)> = cpus.iter().map(|&cpu| (topology(cpu), cpu)).collect();
    keyed.sort_by_key(|&(place, cpu)| (place.is_none(), place, cpu));
    keyed.into_iter().map(|(_, cpu)| cpu).collect()
}

/// A CPU's (package, core) from sysfs (Linux).
pub fn sysfs_topology(cpu: usize) -> Option<(u32, u32)> {
    let read = |name: &str| std::fs::read_to_string(format!("/sys/devices/system/cpu/cpu{cpu}/topology/{name}")).ok()?.trim().parse::<u32>().ok();
    Some((read("physical_package_id")?, read("core_id")?))
}

/// How a share reads in a worker's start line: " on CPU 0", " on CPUs 2, 3".
pub fn describe(share: Option<&[usize]>) -> String {
    match share {
        None => String::new(),
        Some([one]) => format!(" on CPU {one}"),
        Some(many) => format!(" on CPUs {}", many.iter().map(usize::to_string).collect::<Vec<_>>().join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_worker_keeps_every_cpu() {
        assert_eq!(shares(&[0, 1], 1, 16), vec![None]);
    }

    #[test]
    fn two_workers_on_two_cpus_get_one_each() {
        assert_eq!(shares(&[0, 1], 2, 16), vec![Some(vec![0]), Some(vec![1])]);
    }

    #[test]
    fn the_remainder_goes_to_the_first_workers_and_every_cpu_is_used_once() {
        let got = shares(&(0..8).collect::<Vec<_>>(), 3, 16);
        assert_eq!(got, vec![Some(vec![0, 1, 2]), Some(vec![3, 4, 5]), Some(vec![6, 7])]);
    }

    #[test]
    fn the_shares_come_from_the_cpus_capstan_may_use() {
        assert_eq!(shares(&[2, 5, 7, 9], 2, 16), vec![Some(vec![2, 5]), Some(vec![7, 9])]);
    }

    #[test]
    fn more_workers_than_cpus_share_them_all() {
        assert_eq!(shares(&[0, 1], 3, 16), vec![None, None, None]);
    }

    #[test]
    fn a_batch_of_fewer_than_two_items_per_worker_gets_no_shares() {
        assert_eq!(shares(&[0, 1], 2, 3), vec![None, None]);
        assert_eq!(shares(&[0, 1], 2, 4), vec![Some(vec![0]), Some(vec![1])]);
    }

    #[test]
    fn a_cores_hardware_threads_stay_in_one_share() {
        // The usual numbering: cpu N and cpu N+4 are one core's two threads.
        let core = |cpu: usize| Some((0, (cpu % 4) as u32));
        let ordered = by_core(&(0..8).collect::<Vec<_>>(), core);
        assert_eq!(ordered, vec![0, 4, 1, 5, 2, 6, 3, 7]);
        assert_eq!(shares(&ordered, 2, 16), vec![Some(vec![0, 4, 1, 5]), Some(vec![2, 6, 3, 7])]);
        // Unknown CPUs keep their order after the known ones.
        assert_eq!(by_core(&[3, 1, 2], |cpu| (cpu != 1).then_some((0, cpu as u32))), vec![2, 3, 1]);
    }

    #[test]
    fn a_share_reads_as_its_cpus() {
        assert_eq!(describe(None), "");
        assert_eq!(describe(Some(&[0])), " on CPU 0");
        assert_eq!(describe(Some(&[2, 3])), " on CPUs 2, 3");
    }
}
