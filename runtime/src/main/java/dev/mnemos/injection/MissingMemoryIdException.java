package dev.mnemos.injection;

import java.lang.reflect.Method;

/** A {@link SessionMemory} method was called without a session id; the model was not called. */
public class MissingMemoryIdException extends IllegalArgumentException {

    public MissingMemoryIdException(Method method) {
        super("the @MemoryId session id of " + method.getDeclaringClass().getSimpleName() + "." + method.getName()
                + " is null or blank; a session id is required");
    }
}
