package dev.mnemos.profile;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * The per-user row every profile write locks; {@code revision} grows by one per committed write from the microseconds
 * since the epoch at the row's creation, so a profile erased and created again never repeats a revision of the old one.
 */
@Entity
@Table(name = "profile_owner")
public class ProfileOwner extends PanacheEntityBase {

    @Id
    @Column(name = "user_id")
    public String userId;

    public long revision;
}
