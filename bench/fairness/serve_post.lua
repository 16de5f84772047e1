-- wrk script for `assay fair serve`: the sentences below in turn (person nouns in most, so most
-- requests are smoothed over k > 0 perturbations), in the request form named after `--`:
--   text (default)  POST /predict {"text": "..."}
--   hf              POST / {"inputs": "..."}                       (Hugging Face JSON)
--   v2              POST /v2/models/model/infer, one BYTES tensor   (KServe v2 / Open Inference)
--   batch           POST /predict {"texts": [the six sentences]}
local texts = {
  "the actor gives a wonderful performance",
  "a dull film whose director has nothing to say",
  "the waiter and the actress steal every scene",
  "it is a charming , funny film",
  "my uncle would have walked out after ten minutes",
  "the teacher in this story is the best thing about it",
}
local form = "text"
local i = 0
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
function init(args)
  if args[1] then form = args[1] end
end
request = function()
  i = i % #texts + 1
  local t = texts[i]
  if form == "hf" then
    return wrk.format(nil, "/", nil, '{"inputs": "' .. t .. '"}')
  elseif form == "v2" then
    return wrk.format(nil, "/v2/models/model/infer", nil,
      '{"inputs": [{"name": "text", "shape": [1], "datatype": "BYTES", "data": ["' .. t .. '"]}]}')
  elseif form == "batch" then
    return wrk.format(nil, "/predict", nil, '{"texts": ["' .. table.concat(texts, '", "') .. '"]}')
  end
  return wrk.format(nil, "/predict", nil, '{"text": "' .. t .. '"}')
end
