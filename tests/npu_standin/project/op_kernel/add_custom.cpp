// msopgen template: replaced by the operator's own file
