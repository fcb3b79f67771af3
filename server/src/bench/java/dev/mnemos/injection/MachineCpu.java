package dev.mnemos.injection;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * CPU time of every thread of every process on this machine (Linux {@code /proc}; empty elsewhere), by
 * process and thread name: what else ran on the cores while a benchmark pass ran (the JIT's compiler
 * threads, Redis, the kernel's workers), which Java's own thread list does not show.
 */
final class MachineCpu {

    /** {@code /proc}'s unit of CPU time (USER_HZ), in milliseconds. */
    private static final double TICK_MS = 10;

    private final Map<String, Long> ticks;

    private MachineCpu(Map<String, Long> ticks) {
        this.ticks = ticks;
    }

    /** The CPU time so far of every thread, summed by process and thread name (numbers in names folded). */
    static MachineCpu now() {
        Map<String, Long> ticks = new HashMap<>();
        String self = String.valueOf(ProcessHandle.current().pid());
        File[] processes = new File("/proc").listFiles(f -> f.getName().chars().allMatch(Character::isDigit));
        for (File process : processes == null ? new File[0] : processes) {
            File[] threads = new File(process, "task").listFiles();
            for (File thread : threads == null ? new File[0] : threads) {
                try {
                    String owner = process.getName().equals(self) ? "this JVM" : comm(process);
                    String stat = Files.readString(thread.toPath().resolve("stat"));
                    int close = stat.lastIndexOf(')');
                    String name = stat.substring(stat.indexOf('(') + 1, close);
                    // kworker/1:2-events and the like as "kworker"; C2 CompilerThread0 as C2 CompilerThread-N
                    name = owner.equals("kernel") ? name.replaceAll("[/.:].*$", "") : name.replaceAll("[-#]?\\d+$", "-N");
                    name = owner.equals("this JVM") && name.equals("java") ? "main" : name; // the launcher's thread
                    // after the name: state is field 3, utime 14 and stime 15 of stat(5)
                    String[] fields = stat.substring(close + 2).split(" ");
                    ticks.merge(owner + ": " + name, Long.parseLong(fields[11]) + Long.parseLong(fields[12]), Long::sum);
                } catch (IOException | RuntimeException e) {
                    // the thread ended while being read
                }
            }
        }
        return new MachineCpu(ticks);
    }

    /** The {@code top} threads by CPU since {@code before}, in milliseconds per step of {@code steps}. */
    String busiestSince(MachineCpu before, int steps, int top) {
        return ticks.entrySet().stream()
                .map(e -> Map.entry(e.getKey(), e.getValue() - before.ticks.getOrDefault(e.getKey(), 0L)))
                .filter(e -> e.getValue() > 0).sorted((a, b) -> Long.compare(b.getValue(), a.getValue())).limit(top)
                .map(e -> String.format("%s %.3f", e.getKey(), e.getValue() * TICK_MS / steps))
                .collect(Collectors.joining(", "));
    }

    /** The process's name; "kernel" for the kernel's own threads (they have no command line). */
    private static String comm(File process) throws IOException {
        if (Files.readAllBytes(process.toPath().resolve("cmdline")).length == 0) {
            return "kernel";
        }
        return Files.readString(process.toPath().resolve("comm")).trim();
    }
}
