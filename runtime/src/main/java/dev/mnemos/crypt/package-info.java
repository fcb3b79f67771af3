/**
 * Encryption at rest of a user's memory in Postgres with a data key per user (issue 50): the key-encryption key SPI
 * ({@link dev.mnemos.crypt.KeyEncryptionKeys}) and its configured provider, the users' data keys
 * ({@link dev.mnemos.crypt.DataKeys}, destroyed first by an erase), sealing and opening
 * ({@link dev.mnemos.crypt.MemoryCipher}) and rotation ({@link dev.mnemos.crypt.KeyRotation}).
 */
package dev.mnemos.crypt;
