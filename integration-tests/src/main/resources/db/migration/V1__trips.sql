create table trip (
    id    varchar(64) primary key,
    title varchar(200) not null
);

insert into trip (id, title) values ('lisbon', 'A weekend in Lisbon');
