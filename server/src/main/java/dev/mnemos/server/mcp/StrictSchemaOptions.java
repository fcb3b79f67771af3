package dev.mnemos.server.mcp;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.github.victools.jsonschema.generator.Option;
import com.github.victools.jsonschema.generator.SchemaGeneratorConfigBuilder;
import io.quarkiverse.mcp.server.runtime.SchemaGeneratorConfigCustomizer;
import jakarta.inject.Singleton;

/**
 * How the MCP server generates the schemas of typed tool arguments, as strict as {@link StrictArguments} holds the
 * calls: no object takes a field it does not declare ({@code additionalProperties: false}), a record component marked
 * {@code @JsonProperty(required = true)} is required, {@code @JsonPropertyDescription} describes it, fields keep their
 * declaration order, and every schema
 * is inline (an argument's schema is a property of the tool's, where a {@code $ref} to its own {@code $defs} would
 * not resolve).
 */
@Singleton
public class StrictSchemaOptions implements SchemaGeneratorConfigCustomizer {

    @Override
    public void customize(SchemaGeneratorConfigBuilder builder) {
        builder.with(Option.FORBIDDEN_ADDITIONAL_PROPERTIES_BY_DEFAULT, Option.INLINE_ALL_SCHEMAS);
        // declaration order, as a record reads, rather than alphabetical
        builder.forTypesInGeneral().withPropertySorter((first, second) -> 0);
        builder.forFields().withRequiredCheck(field -> {
            JsonProperty property = field.getAnnotationConsideringFieldAndGetter(JsonProperty.class);
            return property != null && property.required();
        });
        builder.forFields().withDescriptionResolver(field -> {
            JsonPropertyDescription description = field.getAnnotationConsideringFieldAndGetter(
                    JsonPropertyDescription.class);
            return description == null ? null : description.value();
        });
    }
}
