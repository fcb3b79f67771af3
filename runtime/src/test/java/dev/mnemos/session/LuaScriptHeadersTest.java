package dev.mnemos.session;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Reads each script's {@code -- KEYS:}, {@code -- ARGV:} and {@code -- ERRORS:} header lines against its Java
 * side: the key names of {@link LuaScript}, the components of its {@link ScriptArgs} record and the order
 * {@link ScriptArgs#argv()} lists them in, and the codes of {@link ScriptReply}.
 */
class LuaScriptHeadersTest {

    private static final Pattern RETURNED = Pattern.compile("return \\{?\\s*(-\\d+)");
    private static final Pattern LISTED = Pattern.compile("(-\\d+) [a-z]");

    @ParameterizedTest
    @EnumSource(LuaScript.class)
    void keysAreTheHeadersKeys(LuaScript script) throws IOException {
        assertThat(script.keyNames()).isEqualTo(names(header(script, "KEYS")));
    }

    @ParameterizedTest
    @EnumSource(LuaScript.class)
    void argsRecordHasTheHeadersArgumentsInOrder(LuaScript script) throws IOException {
        List<String> components = Arrays.stream(script.argsType().getRecordComponents()).map(RecordComponent::getName)
                .toList();
        assertThat(components).isEqualTo(names(header(script, "ARGV")));
    }

    @ParameterizedTest
    @EnumSource(LuaScript.class)
    void argvListsEachComponentInItsPlace(LuaScript script) throws Exception {
        RecordComponent[] components = script.argsType().getRecordComponents();
        Object[] values = new Object[components.length];
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < components.length; i++) {
            values[i] = sample(components[i].getType(), i);
            expected.addAll(rendered(values[i]));
        }
        Class<?>[] types = Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new);
        ScriptArgs args = script.argsType().getDeclaredConstructor(types).newInstance(values);
        assertThat(args.argv()).isEqualTo(expected);
    }

    @ParameterizedTest
    @EnumSource(LuaScript.class)
    void errorsListedAreTheErrorsReturned(LuaScript script) throws IOException {
        String text = text(script.file());
        assertThat(listed(script)).as(script.file()).isEqualTo(codes(RETURNED, body(text)));
    }

    @Test
    void everyReplyCodeIsAnsweredBySomeScriptAndNoOtherCode() throws IOException {
        Set<Long> answered = new TreeSet<>();
        for (LuaScript script : LuaScript.values()) {
            answered.addAll(listed(script));
        }
        Set<Long> known = Arrays.stream(ScriptReply.values()).map(ScriptReply::code)
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(answered).isEqualTo(known);
    }

    @Test
    void eachCodeHasOneMeaningAcrossScripts() throws IOException {
        for (LuaScript script : LuaScript.values()) {
            String errors = header(script, "ERRORS");
            for (ScriptReply reply : ScriptReply.values()) {
                Matcher m = Pattern.compile("(?<![\\d-])" + reply.code() + " ([a-z ]+)").matcher(errors);
                if (m.find()) {
                    assertThat(reply.name().toLowerCase(Locale.ROOT).replace('_', ' ')).as(script.file())
                            .isEqualTo(m.group(1).trim());
                }
            }
        }
        assertThat(ScriptReply.of(-11)).isEqualTo(ScriptReply.NO_SUCH_VERSION);
    }

    private static Set<Long> listed(LuaScript script) throws IOException {
        return codes(LISTED, header(script, "ERRORS"));
    }

    private static Set<Long> codes(Pattern pattern, String text) {
        Set<Long> codes = new TreeSet<>();
        Matcher m = pattern.matcher(text);
        while (m.find()) {
            codes.add(Long.parseLong(m.group(1)));
        }
        return codes;
    }

    /** A distinct value of the component's type, at position {@code i}. */
    private static Object sample(Class<?> type, int i) {
        if (type == String.class) {
            return "s" + i;
        } else if (type == long.class) {
            return 1000L + i;
        } else if (type == int.class) {
            return 2000 + i;
        } else if (type == boolean.class) {
            return true;
        } else if (type == List.class) {
            return List.of("l" + i + "a", "l" + i + "b");
        } else if (type.isEnum()) {
            return type.getEnumConstants()[0];
        }
        throw new AssertionError("no sample of " + type);
    }

    private static List<String> rendered(Object value) {
        if (value instanceof List<?> list) {
            return list.stream().map(String::valueOf).toList();
        } else if (value instanceof Boolean b) {
            return List.of(b ? "1" : "0");
        } else if (value instanceof Enum<?> e) {
            return List.of(e.name().toLowerCase(Locale.ROOT));
        }
        return List.of(String.valueOf(value));
    }

    /** The header line {@code -- <name>: …} ("" when the script has none). */
    private static String header(LuaScript script, String name) throws IOException {
        for (String line : text(script.file()).lines().toList()) {
            if (line.startsWith("-- " + name + ":")) {
                return line.substring(name.length() + 4).trim();
            }
        }
        return "";
    }

    /** The names of a header line: comma-separated, a variable part's {@code ...} left out. */
    private static List<String> names(String line) {
        return Arrays.stream(line.split(",")).map(String::trim).map(n -> n.replace("...", "")).toList();
    }

    /** The script without its comments. */
    private static String body(String text) {
        return text.lines().filter(l -> !l.trim().startsWith("--")).collect(Collectors.joining("\n"));
    }

    private static String text(String file) throws IOException {
        try (InputStream in = LuaScriptHeadersTest.class.getResourceAsStream("/lua/" + file)) {
            assertThat(in).as(file).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
