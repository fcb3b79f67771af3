package org.acme.trips;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A trip of the application's own, in its own table (db/migration/V1__trips.sql). */
@Entity
@Table(name = "trip")
public class Trip extends PanacheEntityBase {

    @Id
    public String id;

    public String title;
}
