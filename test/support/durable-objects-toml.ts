/** The Worker's Durable Object bindings and one migration creating its classes (src/durable-object-classes.ts), as wrangler.toml text for config/deploy check tests. */
export const DURABLE_OBJECTS_TOML = `[[durable_objects.bindings]]
name = "SESSION"
class_name = "SessionObject"
[[durable_objects.bindings]]
name = "AUDIT"
class_name = "AuditObject"
[[durable_objects.bindings]]
name = "SESSION_INDEX"
class_name = "SessionIndex"
[[durable_objects.bindings]]
name = "MEMORY"
class_name = "MemoryObject"
[[migrations]]
tag = "v1"
new_sqlite_classes = ["SessionObject", "AuditObject", "SessionIndex", "MemoryObject"]
`;
