// Which functions of an object are one integrand's kernel, and a function's name as a reader finds it
// (vectorization_classify.hpp): the classifier looks for the hot loop in these.
#include <algorithm>
#include <map>
#include <regex>
#include <set>

#include "vectorization_classify.hpp"

namespace ladder::vectorization {

// "double (anonymous namespace)::integrate<ladder::Gauss>(ladder::Gauss, …) [clone .constprop.0]" →
// "integrate<ladder::Gauss>": what a reader needs to find the function, without parameter lists, return
// type, or template arguments nested more than one deep (TBB's names run to a thousand characters).
std::string short_name(const std::string& name) {
  if (name.rfind("_Z", 0) == 0) return "the registration lambda";  // a name the demangler could not read
  std::string text = name.substr(0, name.find(" [clone"));
  const std::string anonymous = "(anonymous namespace)::";
  for (auto at = text.find(anonymous); at != std::string::npos; at = text.find(anonymous))
    text.erase(at, anonymous.size());
  std::string without_parameters;
  int parentheses = 0;
  for (char c : text) {
    parentheses += c == '(';
    if (parentheses == 0) without_parameters += c;
    parentheses -= c == ')' && parentheses > 0;
  }
  if (without_parameters.ends_with(" const")) without_parameters.resize(without_parameters.size() - 6);
  if (without_parameters.ends_with("::operator")) without_parameters += "()";
  std::string result;
  int angles = 0;
  for (char c : without_parameters) {
    if (c == ' ' && angles == 0) {
      result.clear();  // what came before was the return type
      continue;
    }
    if (c == '>') --angles;
    if (angles < 2) result += c;
    if (c == '<' && ++angles == 2) result += "…";
  }
  if (result.size() > 80) {
    std::size_t cut = 77;
    while (cut > 0 && (static_cast<unsigned char>(result[cut]) & 0xC0) == 0x80)
      --cut;  // not inside a UTF-8 character
    result = result.substr(0, cut) + "…";
  }
  return result;
}

// The functions of one integrand's kernel: those whose name mentions it, the registration lambda for it
// (whose mangled name the demangler cannot read, but which names the integrand), those referring to a symbol
// that mentions it (naive's lambda builds a std::function of it), and the functions of this object they call,
// which must not mention another integrand.
std::vector<const Function*> kernel_functions(const std::vector<Function>& functions,
                                              const std::string& integrand,
                                              const std::vector<std::string>& other_integrands) {
  const std::string qualified = "ladder::" + integrand;
  auto mentions_other = [&](const std::string& name) {
    return std::any_of(other_integrands.begin(), other_integrands.end(), [&](const std::string& other) {
      return std::regex_search(name, std::regex("ladder::" + other + R"(\b)"));
    });
  };
  auto registration_lambda_for_integrand = [&](const std::string& name) {
    // …Registration10add_kernelI…NS_5GaussEEEv…: the lambda Registration::add_kernel<Kernel, F> makes for
    // one integrand F (ladder::Gauss here; a user integrand at global scope is 8LogAtanE, say).
    return name.rfind("_Z", 0) == 0 && name.find("add_kernelI") != std::string::npos &&
           name.find(std::to_string(integrand.size()) + integrand + "E") != std::string::npos;
  };

  std::map<std::string, const Function*> by_name;
  for (const auto& function : functions) by_name.emplace(function.name, &function);
  std::vector<const Function*> kernel;
  std::set<const Function*> seen;
  for (const auto& function : functions) {
    bool related = (function.name.find(qualified) != std::string::npos && !mentions_other(function.name)) ||
                   registration_lambda_for_integrand(function.name);
    for (const auto& instruction : function.instructions)
      related = related || (instruction.relocation_symbol.find(qualified) != std::string::npos &&
                            !mentions_other(function.name));
    if (related && seen.insert(&function).second) kernel.push_back(&function);
  }
  for (std::size_t i = 0; i < kernel.size(); ++i) {  // grows as callees are found
    for (const auto& instruction : kernel[i]->instructions) {
      const auto callee = by_name.find(instruction.callee);
      if (callee == by_name.end() || mentions_other(callee->first)) continue;
      if (seen.insert(callee->second).second) kernel.push_back(callee->second);
    }
  }
  return kernel;
}

}  // namespace ladder::vectorization
