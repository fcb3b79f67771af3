package dev.mnemos.profile;

/** The audit trail's verbs. */
public enum ProfileAction { ADD, UPDATE, DELETE, MERGE, FORGET, PROMOTE, REJECT }
