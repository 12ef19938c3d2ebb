//! The machine's floor under any call that crosses processes: one byte sent to a
//! thread that waits for it and sent back, over a Unix socket pair, with the two
//! threads held on one CPU, held on two different CPUs, and left to the scheduler.
//!
//! Every hop of an `execute_capability` round trip (client to `capstan serve`, capstan
//! to the bridge, the answers back) is a wake-up of a process that sleeps in the
//! kernel. On a virtual machine whose idle virtual CPUs halt, a wake-up on another
//! CPU is an inter-processor interrupt and a halted CPU brought back by the
//! hypervisor; on one CPU it is a context switch. Half the "two CPUs" line is what one
//! hop across CPUs costs on the machine it ran on, half the difference to the "one CPU"
//! line what crossing adds (`host/BENCHMARKS.md`, issue 30): compare machines with it
//! before comparing their call times. The last line has the answering thread poll for
//! 200 µs before it sleeps, as capstan polls for the bridge's answer: what a hop costs
//! when the woken side never went to sleep. The first two allowed CPUs may share a core
//! on a machine with hyperthreads. Run: `cargo bench -p capstan --bench wake_floor`.

#[cfg(target_os = "linux")]
mod floor {
    use criterion::Criterion;
    use std::io::{Read, Write};
    use std::os::unix::net::UnixStream;

    /// The CPUs this process may run on, lowest first.
    fn allowed_cpus() -> Vec<usize> {
        // SAFETY: a zeroed `cpu_set_t` is a valid empty set; sched_getaffinity writes
        // at most its size into it, and CPU_ISSET reads inside it.
        unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
                return Vec::new();
            }
            (0..libc::CPU_SETSIZE as usize).filter(|&cpu| libc::CPU_ISSET(cpu, &set)).collect()
        }
    }

    /// Hold the calling thread on `cpus`; false if the system refused.
    fn hold_on(cpus: &[usize]) -> bool {
        // SAFETY: as above; CPU_SET writes inside the set, sched_setaffinity reads it.
        unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            for &cpu in cpus {
                libc::CPU_SET(cpu, &mut set);
            }
            libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) == 0
        }
    }

    /// How long the polling echo polls before it sleeps.
    const POLL: std::time::Duration = std::time::Duration::from_micros(200);

    /// One byte from `peer`: when `poll`, read without blocking for up to [`POLL`]
    /// first, as capstan's bridge client does; then a blocking read.
    fn next_byte(peer: &mut UnixStream, poll: bool) -> Option<u8> {
        use std::os::fd::AsRawFd;
        let mut byte = [0u8; 1];
        if poll {
            let started = std::time::Instant::now();
            while started.elapsed() < POLL {
                // SAFETY: reads at most one byte into `byte`, which outlives the call.
                match unsafe { libc::recv(peer.as_raw_fd(), byte.as_mut_ptr().cast(), 1, libc::MSG_DONTWAIT) } {
                    1 => return Some(byte[0]),
                    0 => return None,
                    _ if std::io::Error::last_os_error().kind() == std::io::ErrorKind::WouldBlock => {}
                    _ => return None,
                }
            }
        }
        peer.read_exact(&mut byte).ok().map(|_| byte[0])
    }

    /// A thread held on `cpus` that answers each byte with the same byte until the
    /// socket closes; it says first whether it could be held there.
    fn echo(mut peer: UnixStream, cpus: Vec<usize>, poll: bool) -> (std::thread::JoinHandle<()>, bool) {
        let (held_tx, held_rx) = std::sync::mpsc::channel();
        let thread = std::thread::spawn(move || {
            let _ = held_tx.send(hold_on(&cpus));
            while let Some(byte) = next_byte(&mut peer, poll) {
                if peer.write_all(&[byte]).is_err() {
                    break;
                }
            }
        });
        let held = held_rx.recv().unwrap_or(false);
        (thread, held)
    }

    pub fn round_trips(c: &mut Criterion) {
        let all = allowed_cpus();
        let mut group = c.benchmark_group("wake_floor");
        let mut cases: Vec<(&str, Vec<usize>, Vec<usize>, bool)> = vec![("one_byte_round_trip_scheduler_places", all.clone(), all.clone(), false)];
        if let Some(&first) = all.first() {
            cases.push(("one_byte_round_trip_one_cpu", vec![first], vec![first], false));
        }
        if let [first, second, ..] = all[..] {
            cases.push(("one_byte_round_trip_two_cpus", vec![first], vec![second], false));
            cases.push(("one_byte_round_trip_two_cpus_answer_polls", vec![first], vec![second], true));
        }
        for (name, here_cpus, there_cpus, poll) in cases {
            let (mut here, there) = UnixStream::pair().expect("a socket pair");
            let (echoer, held) = echo(there, there_cpus, poll);
            if held && hold_on(&here_cpus) {
                let mut byte = [7u8; 1];
                group.bench_function(name, |b| {
                    b.iter(|| {
                        here.write_all(&byte).expect("send");
                        here.read_exact(&mut byte).expect("answer");
                    })
                });
            } else {
                eprintln!("wake_floor: the threads could not be held where {name} needs them; skipped");
            }
            drop(here);
            echoer.join().expect("the echo thread ends with the socket");
        }
        hold_on(&all);
        group.finish();
    }
}

#[cfg(target_os = "linux")]
criterion::criterion_group! {
    name = benches;
    config = criterion::Criterion::default().sample_size(50).measurement_time(std::time::Duration::from_secs(3)).warm_up_time(std::time::Duration::from_secs(1));
    targets = floor::round_trips
}
#[cfg(target_os = "linux")]
criterion::criterion_main!(benches);

/// CPU affinity is Linux's; elsewhere there is nothing to measure here.
#[cfg(not(target_os = "linux"))]
fn main() {}
