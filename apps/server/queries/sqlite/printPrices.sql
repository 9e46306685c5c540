-- printPrices.list
select *
  from "print_prices"
  order by "sort";

-- printPrices.replace
delete
  from "print_prices";
insert into "print_prices" ("paper_size", "label", "price_fen", "sort")
  values (?, ?, ?, ?);
