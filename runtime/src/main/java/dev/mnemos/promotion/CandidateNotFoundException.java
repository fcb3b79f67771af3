package dev.mnemos.promotion;

/** The user has no PENDING promotion candidate of this id (or it is someone else's: answered 404 alike). */
public class CandidateNotFoundException extends RuntimeException {

    private final long candidateId;

    public CandidateNotFoundException(long candidateId) {
        super("no pending candidate " + candidateId);
        this.candidateId = candidateId;
    }

    public long candidateId() {
        return candidateId;
    }
}
